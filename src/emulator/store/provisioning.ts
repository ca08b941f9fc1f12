/**
 * nodeset (boot state) and the osimage commands: copycds, imgimport, genimage, packimage,
 * imgexport, rmimage (xcat-behavior.md §1.2 osimages). Boot state lives in chain.currstate and
 * the node's provisioning attributes, so the table and object views agree.
 */
import { FAILED_WITH_UNKNOWN_REASON, nodeError, unableToIdentifyPlugin } from "../../contract/messages";
import { copycdsImages } from "./copycds-images";
import type { Database } from "./database";
import type { Definitions } from "./definitions";
import { CommandError } from "./errors";
import type { ObjectAttributes } from "./object-reader";
import { MN_HOSTNAME } from "./seed";

const PLAIN_STATES = new Set(["offline", "boot", "shell", "standby", "iscsiboot"]);
/** Boot states xCAT no longer takes by name (destiny.pm:286-288). */
const LEGACY_STATES = new Set(["install", "netboot", "statelite"]);
/**
 * Which nodes a nodeset plugin takes, by their `handled_commands` (master:xCAT-server/lib/xcat/
 * plugins/xnba.pm:29, pxe.pm:25, petitboot.pm:21, yaboot.pm:30 by noderes.netboot; grub2.pm:32 by
 * the regex `grub2[-]?.*`; onie.pm:33 by nodehm.mgt=switch; mic.pm:29 and pdu.pm:66 by nodehm.mgt).
 */
const NETBOOT_PLUGINS = new Set(["xnba", "pxe", "petitboot", "yaboot"]);
const NODESET_BY_MGT = new Set(["switch", "mic", "pdu"]);
/** The tables xcatd names for a node no nodeset plugin takes (as the real 2.19 answered). */
const NODESET_PLUGIN_TABLES = "noderes.netboot=(grub2[-]?.*);nodehm.mgt;nodehm.mgt=switch";

/**
 * The nodeset plugins that write a boot configuration file per node and so need the node's
 * address (xnba.pm master:657-672, grub2.pm:622, petitboot.pm:478: checkNodeIPaddress), by the
 * plugin's name.
 */
function addressedPlugin(netboot: string): string | undefined {
  if (netboot === "xnba" || netboot === "petitboot") return netboot;
  return /^grub2[-]?.*/.test(netboot) ? "grub2" : undefined;
}

/** What those plugins say last when a node failed (xnba.pm master:744-748 and 900-905). */
function failedToGenerate(plugin: string): string {
  return `Failed to generate ${plugin} configurations for some node(s) on ${MN_HOSTNAME}. Check xCAT log file for more details.`;
}

/** The provisioning methods whose image files rmimage removes (rmimage.pm:112-115). */
const RMIMAGE_METHODS = new Set(["netboot", "statelite", "raw", "sysclone"]);

/** genimage.pm:165-168 and packimage.pm:177-180 word it so for any method. */
function notDiskless(name: string): string {
  return `'${name}' cannot be used to build diskless image. Make sure osimage.provmethod is 'netboot'.`;
}

/** What genimage, packimage and imgexport left on the MN for an image (`_emu_images.state`). */
interface ImageState {
  generated?: boolean;
  /** The directory genimage wrote the root image under. */
  dir?: string;
  packed?: boolean;
  exported?: string;
}

/** What copycds derives from an ISO file name such as `RHEL-8.8.0-x86_64-dvd1.iso` or `RHEL6.5-20131111.0-Server-x86_64-DVD1.iso`. */
export function distroFromIso(path: string, name?: string, arch?: string) {
  const file = path.split("/").pop() ?? path;
  const archMatch = /(x86_64|amd64|ppc64le|ppc64el|ppc64|aarch64|s390x)/.exec(file);
  const distro = name ?? distroOfMedium(file);
  // debian.pm:346-349: Ubuntu media name amd64, which xCAT calls x86_64.
  const resolvedArch = arch ?? (archMatch?.[1] === "amd64" ? "x86_64" : archMatch?.[1]);
  if (!distro || !resolvedArch) return undefined;
  return { distro, arch: resolvedArch };
}

/** The distribution a published installation medium's file name names, if any. */
function distroOfMedium(file: string): string | undefined {
  const patterns: [RegExp, (m: RegExpExecArray) => string][] = [
    [/RHEL-?(\d+)\.(\d+)/i, (m) => `rhels${m[1]}.${m[2]}`],
    [/rhel-(?:server-)?(\d+)\.(\d+)/i, (m) => `rhels${m[1]}.${m[2]}`],
    [/CentOS-(\d+)(?:\.(\d+))?/i, (m) => `centos${m[1]}${m[2] ? `.${m[2]}` : ""}`],
    [/Rocky-(\d+)\.(\d+)/i, (m) => `rocky${m[1]}.${m[2]}`],
    [/AlmaLinux-(\d+)\.(\d+)/i, (m) => `alma${m[1]}.${m[2]}`],
    [/SLE-(\d+)-SP(\d+)/i, (m) => `sle${m[1]}.${m[2]}`],
    [/ubuntu-(\d+\.\d+(?:\.\d+)?)/i, (m) => `ubuntu${m[1]}`],
  ];
  for (const [re, make] of patterns) {
    const m = re.exec(file);
    if (m) return make(m);
  }
  return undefined;
}

/** setdestiny's per-node errors (report_node_error), which fail those nodes only. */
class NodeErrors extends CommandError {
  constructor(
    messages: readonly string[],
    readonly nodes: readonly string[],
  ) {
    super(messages);
  }
}

export class Provisioning {
  readonly #db: Database;
  readonly #defs: Definitions;

  readonly #resolve: (name: string) => string | undefined;

  /** `resolve`: the address a name has on the management node (its /etc/hosts, then its DNS). */
  constructor(db: Database, defs: Definitions, resolve: (name: string) => string | undefined) {
    this.#db = db;
    this.#defs = defs;
    this.#resolve = resolve;
  }

  /**
   * nodeset stat: chain.currstate, or "offline" for a node never set: the netboot plugins read
   * the header of the node's boot configuration file and answer "offline" when there is none
   * (xnba.pm:62-92, pxe.pm, grub2.pm, petitboot.pm getstate; a real 2.19 answers so for a node
   * with netboot=xnba). A node no plugin takes (no noderes.netboot) is a node error, and then
   * the CGI shows only the errors (docs/xcat-behavior-found.md 3).
   */
  bootstate(nodes: readonly string[]): Map<string, string> {
    const objects = this.#defs.read(nodes);
    this.#refusePluginless(nodes, objects, []);
    return new Map(nodes.map((n) => [n, objects.get(n)?.currstate ?? "offline"]));
  }

  /**
   * nodeset <state>, nodeset osimage=<image>, or nodeset osimage (each node's own
   * nodetype.provmethod). xcatd hands each node to the plugin of its noderes.netboot and reports
   * the nodes none takes; the others are set. destiny.pm:286-392: the legacy states
   * install/netboot/statelite are refused; an image named in the request is checked once for the
   * range; images taken from the nodes are checked per node, and the good nodes are set even when
   * others fail.
   */
  setBootstate(nodes: readonly string[], request: { state?: string; osimage?: string }): void {
    const objects = this.#defs.read(nodes);
    const pluginless = new Set(this.#pluginless(nodes, objects));
    const taken = nodes.filter((n) => !pluginless.has(n));
    // xnba.pm master:657-672: a node with no hosts.ip whose name does not resolve on the MN is
    // left out before setdestiny runs (nothing of it is written) and fails the plugin's run.
    const failed = new Set(
      taken.filter(
        (n) => addressedPlugin(objects.get(n)?.netboot ?? "") && !objects.get(n)?.ip && !this.#resolve(n),
      ),
    );
    const addressed = taken.filter((n) => !failed.has(n));
    const errors: string[] = [];
    let aborted = false;
    try {
      if (addressed.length > 0) this.#setBootstate(addressed, request);
    } catch (error) {
      if (!(error instanceof CommandError)) throw error;
      errors.push(...error.messages);
      // A node error (nodeError) marks the node failed; any other is setdestiny's errorabort, and
      // the plugin returns at once (xnba.pm master:411-441 pass_along, 786-790).
      const nodeErrors = error instanceof NodeErrors ? error.nodes : [];
      for (const node of nodeErrors) failed.add(node);
      aborted = !(error instanceof NodeErrors);
    }
    // xnba.pm master:733-748 (no node left) and 900-905 (some node failed): one line per plugin.
    if (!aborted || addressed.length === 0) {
      const plugins = new Set([...failed].map((n) => addressedPlugin(objects.get(n)?.netboot ?? "")));
      for (const plugin of plugins) if (plugin) errors.push(failedToGenerate(plugin));
    }
    this.#refusePluginless(nodes, objects, errors);
  }

  #pluginless(nodes: readonly string[], objects: ReadonlyMap<string, ObjectAttributes>): string[] {
    return nodes.filter((node) => {
      const { netboot = "", mgt = "" } = objects.get(node) ?? {};
      return !(NETBOOT_PLUGINS.has(netboot) || /^grub2[-]?.*/.test(netboot) || NODESET_BY_MGT.has(mgt));
    });
  }

  /** Throws the node errors of nodes no nodeset plugin takes, after the given errors, if any. */
  #refusePluginless(
    nodes: readonly string[],
    objects: ReadonlyMap<string, ObjectAttributes>,
    errors: readonly string[],
  ): void {
    const refused = this.#pluginless(nodes, objects).map((node) =>
      nodeError(node, unableToIdentifyPlugin(NODESET_PLUGIN_TABLES)),
    );
    if (refused.length > 0 || errors.length > 0) throw new CommandError([...refused, ...errors]);
  }

  #setBootstate(nodes: readonly string[], request: { state?: string; osimage?: string }): void {
    if (request.osimage !== undefined) {
      const image = this.#defs.object("osimage", request.osimage);
      // destiny.pm:294-305: the image is looked up once for the whole range; nothing is changed.
      if (!image) {
        throw new CommandError([`Cannot find the OS image ${request.osimage} in the osimage table.`]);
      }
      if (!image.provmethod) {
        throw new CommandError([`osimage.provmethod for ${request.osimage} must be set.`]);
      }
      this.#prepare(nodes, request.osimage, image);
      return;
    }
    const state = request.state ?? "";
    if (LEGACY_STATES.has(state)) {
      throw new CommandError([
        'The options "install", "netboot", and "statelite" have been deprecated, use "osimage=<osimage_name>" instead.',
      ]);
    }
    if (state === "osimage") {
      this.#prepareOwnImages(nodes);
      return;
    }
    if (!PLAIN_STATES.has(state) && !state.startsWith("runcmd=")) {
      throw new CommandError([`Error: ${state} is not a valid nodeset option`]);
    }
    this.#defs.change("node", nodes, [["currstate", state]]);
  }

  /**
   * Points nodes at an image: nodetype from the image for every node, then chain.currstate
   * `<provmethod> <os>-<arch>-<profile>` for the nodes with a MAC. destiny.pm writes nodetype
   * first and then refuses each node without mac.mac (master:xCAT-server/lib/xcat/plugins/
   * destiny.pm:415-438): the real 2.19 answered `<node>: No MAC address available for this
   * node` and kept provmethod, os, arch and profile. With no node left it ends with an errorcode
   * and no message (master:441-447), which the CGI shows as `Failed with unknown reason.`. Throws
   * NodeErrors when a node is refused.
   */
  #prepare(nodes: readonly string[], name: string, image: ObjectAttributes): void {
    const osvers = image.osvers ?? "";
    const osarch = image.osarch ?? "";
    const profile = image.profile ?? "";
    this.#defs.change("node", nodes, [
      ["provmethod", name],
      ["os", osvers],
      ["arch", osarch],
      ["profile", profile],
    ]);
    const objects = this.#defs.read(nodes);
    const withMac = nodes.filter((node) => objects.get(node)?.mac);
    if (withMac.length > 0) {
      this.#defs.change("node", withMac, [
        ["currstate", `${image.provmethod} ${osvers}-${osarch}-${profile}`],
      ]);
    }
    const withoutMac = nodes.filter((node) => !objects.get(node)?.mac);
    if (withoutMac.length === 0) return;
    const messages = withoutMac.map((node) => nodeError(node, "No MAC address available for this node"));
    if (withMac.length === 0) messages.push(FAILED_WITH_UNKNOWN_REASON);
    throw new NodeErrors(messages, withoutMac);
  }

  /** nodeset osimage: every node with the image of its own nodetype.provmethod (destiny.pm:334-392). */
  #prepareOwnImages(nodes: readonly string[]): void {
    const objects = this.#defs.read(nodes);
    const byImage = new Map<string, string[]>();
    const errors: string[] = [];
    const failed: string[] = [];
    for (const node of nodes) {
      const name = objects.get(node)?.provmethod ?? "";
      if (name === "" || LEGACY_STATES.has(name)) {
        errors.push(nodeError(node, "OS image name must be specified in nodetype.provmethod"));
        failed.push(node);
        continue;
      }
      byImage.set(name, [...(byImage.get(name) ?? []), node]);
    }
    for (const [name, members] of byImage) {
      const image = this.#defs.object("osimage", name);
      const problem = !image
        ? `Cannot find the OS image ${name} in the osimage table`
        : !(image.provmethod && image.profile && image.osvers && image.osarch)
          ? `osimage.provmethod, osimage.osvers, osimage.osarch and osimage.profile for ${name} must be set`
          : undefined;
      if (image && !problem) {
        try {
          this.#prepare(members, name, image);
        } catch (error) {
          if (!(error instanceof NodeErrors)) throw error;
          errors.push(...error.messages.filter((m) => m !== FAILED_WITH_UNKNOWN_REASON));
          failed.push(...error.nodes);
        }
      } else {
        for (const node of members) errors.push(nodeError(node, problem ?? ""));
        failed.push(...members);
      }
    }
    if (errors.length > 0) throw new NodeErrors(errors, failed);
  }

  /** copycds: the osdistro row and the images xCAT defines for the distribution (./copycds-images.ts). */
  copycds(iso: string, params: ReadonlyMap<string, string>): void {
    // The emulated MN holds the installation media it can name by their published file names
    // and no other file: copycds refuses any other path before mounting it (copycds.pm master:143-150).
    if (!distroOfMedium(iso.split("/").pop() ?? iso)) {
      throw new CommandError([
        `The management server was unable to find/read ${iso}. Ensure that file exists on the server at the specified location.`,
      ]);
    }
    const found = distroFromIso(
      iso,
      params.get("-n") ?? params.get("--name"),
      params.get("-a") ?? params.get("--arch"),
    );
    if (!found) {
      throw new CommandError([
        `copycds could not identify the ISO supplied, you may wish to try -n <osver>: ${iso}`,
      ]);
    }
    const { distro, arch } = found;
    const osdistroname = `${distro}-${arch}`;
    this.#db.upsert(
      "osdistro",
      { osdistroname },
      {
        basename: distro.replace(/[\d.]+$/, ""),
        majorversion: /(\d+)/.exec(distro)?.[1] ?? null,
        minorversion: /\d+\.(\d+)/.exec(distro)?.[1] ?? null,
        arch,
        type: "Linux",
        dirpaths: `/install/${distro}/${arch}`,
      },
    );
    // anaconda.pm:2403-2419: every image is (re)written; only a new one gets addkcmdline=quiet
    // (SvrUtils.pm:941-944, 1366-1369).
    for (const image of copycdsImages(distro, arch, `/install/${distro}/${arch}`)) {
      if (this.#defs.exists("osimage", image.name))
        this.#defs.change("osimage", [image.name], image.attributes);
      else this.#defs.create("osimage", [image.name], [...image.attributes, ["addkcmdline", "quiet"]]);
    }
  }

  /** imgimport: an osimage from an exported bundle `<name>.tgz`. */
  imgimport(file: string): void {
    const name = (file.split("/").pop() ?? file).replace(/\.(tgz|tar\.gz|tar)$/, "");
    if (this.#defs.exists("osimage", name)) {
      throw new CommandError([`The osimage ${name} already exists, remove it or use -f to overwrite.`]);
    }
    this.#defs.create(
      "osimage",
      [name],
      [
        ["imagetype", "linux"],
        ["provmethod", "netboot"],
        ["description", `imported from ${file}`],
      ],
    );
  }

  #image(name: string) {
    const image = this.#defs.object("osimage", name);
    // genimage.pm:142-145, packimage.pm:154-157, imgport.pm:237-240.
    if (!image) throw new CommandError([`Cannot find image '${name}' from the osimage table.`]);
    return image;
  }

  #state(name: string): ImageState {
    const row = this.#db.first("_emu_images", { imagename: name });
    return row?.state ? (JSON.parse(row.state) as ImageState) : {};
  }

  /** The images whose genimage wrote under `dir`. */
  #generatedIn(dir: string): string[] {
    return this.#db
      .select("_emu_images")
      .map((row) => row.imagename ?? "")
      .filter((name) => name && this.#state(name).generated && this.#state(name).dir === dir);
  }

  /** genimage / packimage / imgexport; returns the info lines of the raw xcatd response. */
  instance(name: string, action: "gen" | "pack" | "export"): string[] {
    const image = this.#image(name);
    const state = this.#state(name);
    const diskless = image.provmethod === "netboot" || image.provmethod === "statelite";
    const rootimgdir =
      image.rootimgdir ??
      `/install/netboot/${image.osvers ?? "os"}/${image.osarch ?? "arch"}/${image.profile ?? "compute"}`;
    let info: string[];
    // genimage.pm master:146-169, packimage.pm:159-175: the image needs a linuximage row (one of
    // its linuximage attributes set: pkglist, rootimgdir, exlist, ...) and os, arch, profile, method.
    if (action !== "export") {
      if (!this.#db.first("linuximage", { imagename: name })) {
        throw new CommandError([`Cannot find ${name} from the linuximage table.`]);
      }
      if (!(image.osvers && image.osarch && image.profile && image.provmethod)) {
        throw new CommandError([
          `osimage.osvers, osimage.osarch, osimage.profile and osimage.provmethod must be specified for the image ${name} in the database.`,
        ]);
      }
    }
    if (action === "gen") {
      // genimage.pm:160-175.
      if (!diskless) throw new CommandError([notDiskless(name)]);
      if (!image.pkglist) {
        throw new CommandError([
          `A .pkglist file must be specified for image '${name}' in the linuximage table.`,
        ]);
      }
      state.generated = true;
      state.dir = rootimgdir;
      info = [`Generating image: ${name}`, `the initial ramdisk for stateless is generated successfully.`];
    } else if (action === "pack") {
      // packimage.pm:177-180 (statelite images are not packed), 396-401 (genimage first).
      if (image.provmethod !== "netboot") throw new CommandError([notDiskless(name)]);
      if (this.#generatedIn(rootimgdir).length === 0)
        throw new CommandError([
          `${rootimgdir}/rootimg does not exist, run genimage -o ${image.osvers ?? ""} -p ${image.profile ?? ""} on a server with matching architecture`,
        ]);
      state.packed = true;
      info = [`Packing contents of ${rootimgdir}/rootimg`, "archive method:cpio", "compress method:gzip"];
    } else {
      state.exported = `/install/${name}.tgz`;
      info = [`Exporting ${name} to /install/${name}.tgz...`, `Done.`];
    }
    this.#db.insert("_emu_images", { imagename: name, state: JSON.stringify(state) });
    return info;
  }

  /**
   * rmimage <image> (rmimage.pm:94-257): the image directory comes from the image's rootimgdir, or
   * /install/netboot/<os>/<arch>/<profile> from its attributes or, for an image not defined, from
   * its name; what is refused and what is said follow rmimage.pm. Images that share a directory
   * (the netboot and statelite images of a profile) share its generated files.
   */
  removeInstance(name: string): string[] {
    const image = this.#defs.object("osimage", name);
    const methodError = (method: string) =>
      new CommandError([
        `Invalid method "${method}", the rmimage command can only be used to remove the netboot, statelite, sysclone or raw image files`,
      ]);
    let method = image?.provmethod ?? "";
    if (method && !RMIMAGE_METHODS.has(method)) throw methodError(method);
    let imagedir = image?.rootimgdir ?? "";
    if (!imagedir) {
      let [osver, arch, profile] = [image?.osvers, image?.osarch, image?.profile];
      if (!osver || !arch || !profile) {
        const parts = name.split("-");
        [osver, arch, method] = [parts[0] ?? "", parts[1] ?? "", parts[2] ?? ""];
        profile = parts.slice(3).join("-");
        if (!osver || !arch || !profile || !method) throw new CommandError([`Invalid image name ${name}`]);
        if (!RMIMAGE_METHODS.has(method)) throw methodError(method);
      }
      imagedir = `/install/netboot/${osver}/${arch}/${profile}`;
    }
    const owners = this.#generatedIn(imagedir);
    if (owners.length === 0) throw new CommandError([`Image directory ${imagedir} does not exist`]);
    for (const owner of owners) this.#db.delete("_emu_images", { imagename: owner });
    const info = [
      `Removing directory ${imagedir}/rootimg`,
      "Image files have been removed successfully from this management node.",
    ];
    if (method === "statelite")
      info.push(
        `Please be aware that the statelite image files on the diskful service nodes are not removed, you can remove the image files on the service nodes manually if necessary, for example, use command "rsync -az --delete /install <sn>:/" to remove the image files on the service nodes, where the <sn> is the hostname of the service node.`,
      );
    return info;
  }
}
