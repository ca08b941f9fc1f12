/**
 * nodeset (boot state) and the osimage commands: copycds, imgimport, genimage, packimage,
 * imgexport, rmimage (xcat-behavior.md §1.2 osimages). Boot state lives in chain.currstate and
 * the node's provisioning attributes, so the table and object views agree.
 */
import { nodeError } from "../../contract/messages";
import type { Database } from "./database";
import type { Definitions } from "./definitions";
import { CommandError } from "./errors";
import type { ObjectAttributes } from "./object-reader";

const PLAIN_STATES = new Set(["offline", "boot", "shell", "standby", "iscsiboot"]);
/** Boot states xCAT no longer takes by name (destiny.pm:286-288). */
const LEGACY_STATES = new Set(["install", "netboot", "statelite"]);

/** What copycds derives from an ISO file name such as `RHEL-8.8.0-x86_64-dvd1.iso` or `RHEL6.5-20131111.0-Server-x86_64-DVD1.iso`. */
export function distroFromIso(path: string, name?: string, arch?: string) {
  const file = path.split("/").pop() ?? path;
  const archMatch = /(x86_64|ppc64le|ppc64|aarch64|s390x)/.exec(file);
  const patterns: [RegExp, (m: RegExpExecArray) => string][] = [
    [/RHEL-?(\d+)\.(\d+)/i, (m) => `rhels${m[1]}.${m[2]}`],
    [/rhel-(?:server-)?(\d+)\.(\d+)/i, (m) => `rhels${m[1]}.${m[2]}`],
    [/CentOS-(\d+)(?:\.(\d+))?/i, (m) => `centos${m[1]}${m[2] ? `.${m[2]}` : ""}`],
    [/Rocky-(\d+)\.(\d+)/i, (m) => `rocky${m[1]}.${m[2]}`],
    [/AlmaLinux-(\d+)\.(\d+)/i, (m) => `alma${m[1]}.${m[2]}`],
    [/SLE-(\d+)-SP(\d+)/i, (m) => `sle${m[1]}.${m[2]}`],
    [/ubuntu-(\d+\.\d+(?:\.\d+)?)/i, (m) => `ubuntu${m[1]}`],
  ];
  let distro = name;
  if (!distro) {
    for (const [re, make] of patterns) {
      const m = re.exec(file);
      if (m) {
        distro = make(m);
        break;
      }
    }
  }
  const resolvedArch = arch ?? archMatch?.[1];
  if (!distro || !resolvedArch) return undefined;
  return { distro, arch: resolvedArch };
}

export class Provisioning {
  readonly #db: Database;
  readonly #defs: Definitions;

  constructor(db: Database, defs: Definitions) {
    this.#db = db;
    this.#defs = defs;
  }

  /** nodeset stat: chain.currstate, or "boot" for a node never set. */
  bootstate(nodes: readonly string[]): Map<string, string> {
    const objects = this.#defs.read(nodes);
    return new Map(nodes.map((n) => [n, objects.get(n)?.currstate ?? "boot"]));
  }

  /**
   * nodeset <state>, nodeset osimage=<image>, or nodeset osimage (each node's own
   * nodetype.provmethod). destiny.pm:286-392: the legacy states install/netboot/statelite are
   * refused; an image named in the request is checked once for the range; images taken from the
   * nodes are checked per node, and the good nodes are set even when others fail.
   */
  setBootstate(nodes: readonly string[], request: { state?: string; osimage?: string }): void {
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

  /** Points nodes at an image: nodetype from the image, chain.currstate `<provmethod> <os>-<arch>-<profile>`. */
  #prepare(nodes: readonly string[], name: string, image: ObjectAttributes): void {
    const osvers = image.osvers ?? "";
    const osarch = image.osarch ?? "";
    const profile = image.profile ?? "";
    this.#defs.change("node", nodes, [
      ["provmethod", name],
      ["os", osvers],
      ["arch", osarch],
      ["profile", profile],
      ["currstate", `${image.provmethod} ${osvers}-${osarch}-${profile}`],
    ]);
  }

  /** nodeset osimage: every node with the image of its own nodetype.provmethod (destiny.pm:334-392). */
  #prepareOwnImages(nodes: readonly string[]): void {
    const objects = this.#defs.read(nodes);
    const byImage = new Map<string, string[]>();
    const errors: string[] = [];
    for (const node of nodes) {
      const name = objects.get(node)?.provmethod ?? "";
      if (name === "" || LEGACY_STATES.has(name)) {
        errors.push(nodeError(node, "OS image name must be specified in nodetype.provmethod"));
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
      if (image && !problem) this.#prepare(members, name, image);
      else for (const node of members) errors.push(nodeError(node, problem ?? ""));
    }
    if (errors.length > 0) throw new CommandError(errors);
  }

  /** copycds: the install, netboot and statelite images of a distribution. */
  copycds(iso: string, params: ReadonlyMap<string, string>): void {
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
    for (const provmethod of ["install", "netboot", "statelite"]) {
      const name = `${distro}-${arch}-${provmethod}-compute`;
      if (this.#defs.exists("osimage", name)) continue;
      const attrs: [string, string][] = [
        ["imagetype", "linux"],
        ["provmethod", provmethod],
        ["profile", "compute"],
        ["osname", "Linux"],
        ["osvers", distro],
        ["osarch", arch],
        ["osdistroname", osdistroname],
        ["pkgdir", `/install/${distro}/${arch}`],
        ["pkglist", `/opt/xcat/share/xcat/${provmethod}/rh/compute.${distro.replace(/\..*$/, "")}.pkglist`],
      ];
      if (provmethod === "install")
        attrs.push([
          "template",
          `/opt/xcat/share/xcat/install/rh/compute.${distro.replace(/\..*$/, "")}.tmpl`,
        ]);
      else attrs.push(["rootimgdir", `/install/${provmethod}/${distro}/${arch}/compute`]);
      this.#defs.create("osimage", [name], attrs);
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
    if (!image) throw new CommandError([`Cannot find the osimage ${name}.`]);
    return image;
  }

  #state(name: string): { generated?: boolean; packed?: boolean; exported?: string } {
    const row = this.#db.first("_emu_images", { imagename: name });
    return row?.state ? (JSON.parse(row.state) as { generated?: boolean; packed?: boolean }) : {};
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
    if (action === "gen") {
      if (!diskless)
        throw new CommandError([`The genimage command can only be used with netboot or statelite images.`]);
      state.generated = true;
      info = [`Generating image: ${name}`, `the initial ramdisk for stateless is generated successfully.`];
    } else if (action === "pack") {
      if (!state.generated)
        throw new CommandError([`${rootimgdir}/rootimg does not exist, run genimage first.`]);
      state.packed = true;
      info = [`Packing contents of ${rootimgdir}/rootimg`, "archive method:cpio", "compress method:gzip"];
    } else {
      state.exported = `/install/${name}.tgz`;
      info = [`Exporting ${name} to /install/${name}.tgz...`, `Done.`];
    }
    this.#db.insert("_emu_images", { imagename: name, state: JSON.stringify(state) });
    return info;
  }

  /** rmimage: removes the generated image from the file system. */
  removeInstance(name: string): string[] {
    const image = this.#image(name);
    const state = this.#state(name);
    if (!state.generated) {
      throw new CommandError([`Image directory for ${name} does not exist, nothing to remove.`]);
    }
    this.#db.delete("_emu_images", { imagename: name });
    return [
      `Image files have been removed successfully from ${image.rootimgdir ?? `/install/netboot/${name}`}.`,
    ];
  }
}
