/**
 * Which osimages copycds defines for a distribution, and the files they point at, following
 * xCAT's rules over the profile files it ships (./shipped-profile-files.ts; xcat-core 7733d16f,
 * xCAT-server/lib/perl/xCAT/SvrUtils.pm):
 * - full install (update_tables_with_templates, :744-960): one `<os>-<arch>-install-<profile>`
 *   per profile with a `{compute,service}.*tmpl` file for this OS or architecture;
 * - diskless (update_tables_with_diskless_image, :1195-1384): `<os>-<arch>-netboot-compute` and,
 *   for the Red Hat family and SLES, `<os>-<arch>-statelite-compute` (anaconda.pm:2403-2419,
 *   sles.pm:2221-2238; debian.pm:497-503 makes netboot only), as only `compute.*pkglist` is
 *   globbed. No image for other profiles (service, kvm, hpc...) is diskless after copycds.
 * The management node image (`-stateful-mgmtnode`, :976-1170) is made only when the ISO matches the
 * MN's own OS and architecture; the emulated MN runs none of them, so it is never made here.
 */
import { type ProfileKind, SHIPPED_PROFILE_FILES } from "./shipped-profile-files";

/** Where xCAT's share directory is installed ($::XCATROOT/share/xcat). */
const SHARE = "/opt/xcat/share/xcat";

/**
 * Platform directory names that exist under share/xcat/<kind>: the shipped ones, plus the links
 * the RPM adds (xCAT-server.spec:502-506: sle → sles, centos-stream → centos).
 */
const PLATFORM_ALIASES: Readonly<Record<string, string>> = { sle: "sles", "centos-stream": "centos" };

/** One image copycds writes: its name and the attributes set on it. */
export interface CopycdsImage {
  readonly name: string;
  readonly attributes: ReadonlyArray<readonly [string, string]>;
}

/**
 * The images copycds defines for `osver` (e.g. `rhels6.5`) and `arch`, with `pkgdir` the copied
 * media (`/install/<osver>/<arch>`), in the order xCAT writes them.
 */
export function copycdsImages(osver: string, arch: string, pkgdir: string): CopycdsImage[] {
  const osdistroname = `${osver}-${arch}`;
  const otherpkgdir = `/install/post/otherpkgs/${osver}/${arch}`;
  const common = (provmethod: string, profile: string): [string, string][] => [
    ["imagetype", "linux"],
    ["provmethod", provmethod],
    ["profile", profile],
    ["osname", "Linux"],
    ["osvers", osver],
    ["osarch", arch],
    ["osdistroname", osdistroname],
  ];
  const images: CopycdsImage[] = [];

  const install = platformOf("install", osver);
  if (install) {
    const genos = installGenos(osver);
    const lookup = new FileLookup("install", install, osver, arch, genos);
    for (const profile of profilesOf(install, "install", osver, arch, genos)) {
      const template = lookup.find(profile, "tmpl");
      if (!template) continue;
      const attributes = common("install", profile);
      // SvrUtils.pm:912-915: service node images run the servicenode postscript.
      if (profile === "service") attributes.push(["postscripts", "servicenode"]);
      attributes.push(["template", template], ["pkgdir", pkgdir]);
      pushIfFound(attributes, "pkglist", lookup.find(profile, "pkglist"));
      pushIfFound(attributes, "otherpkglist", lookup.find(profile, "otherpkgs.pkglist"));
      attributes.push(["otherpkgdir", otherpkgdir]);
      images.push({ name: `${osver}-${arch}-install-${profile}`, attributes });
    }
  }

  const netboot = platformOf("netboot", osver);
  if (netboot) {
    const genos = disklessGenos(osver);
    const lookup = new FileLookup("netboot", netboot, osver, arch, genos);
    const modes = /^(ubuntu|debian)/.test(osver) ? ["netboot"] : ["netboot", "statelite"];
    for (const mode of modes) {
      for (const profile of profilesOf(netboot, "netboot", osver, arch, genos)) {
        const pkglist = lookup.find(profile, "pkglist");
        if (!pkglist) continue;
        const attributes = common(mode, profile);
        attributes.push(["pkglist", pkglist], ["pkgdir", pkgdir]);
        pushIfFound(attributes, "otherpkglist", lookup.find(profile, "otherpkgs.pkglist"));
        attributes.push(["otherpkgdir", otherpkgdir]);
        pushIfFound(attributes, "exlist", lookup.find(profile, "exlist"));
        pushIfFound(attributes, "postinstall", lookup.postinstall(profile));
        // SvrUtils.pm:1365: netboot and statelite images of a profile share one root image directory.
        attributes.push(["rootimgdir", `/install/netboot/${osver}/${arch}/${profile}`]);
        images.push({ name: `${osver}-${arch}-${mode}-${profile}`, attributes });
      }
    }
  }
  return images;
}

function pushIfFound(attributes: [string, string][], name: string, value: string | undefined): void {
  if (value) attributes.push([name, value]);
}

/**
 * The platform directory: `osver` shortened one character at a time until share/xcat/<kind>/<it>
 * exists (SvrUtils.pm:772-777, 1222-1227), e.g. rhels6.5 → rh, sle15.4 → sle.
 */
function platformOf(kind: ProfileKind, osver: string): string | undefined {
  for (let name = osver; name.length > 0; name = name.slice(0, -1)) {
    const dir = PLATFORM_ALIASES[name] ?? name;
    if (SHIPPED_PROFILE_FILES[kind][dir]) return name;
  }
  return undefined;
}

/** The generic OS name for full installs (SvrUtils.pm:781-794): rhels6.5 → rhels6; Ubuntu 20.04+ → subiquity. */
function installGenos(osver: string): string {
  const ubuntu = /^ubuntu(\d+\.\d+)/.exec(osver);
  if (ubuntu && Number(ubuntu[1]) >= 20.04) return "subiquity";
  return disklessGenos(osver);
}

/** The generic OS name for diskless images (SvrUtils.pm:1231-1238). */
function disklessGenos(osver: string): string {
  const first = osver.replace(/\..*/, "");
  const rh = /rh.*s(\d*)/.exec(first);
  if (rh) return `rhels${rh[1]}`;
  if (/^leap15/.test(osver)) return "sle15";
  return first;
}

/**
 * The OS names a file may be suffixed with, most specific first (get_os_search_list,
 * SvrUtils.pm:487-517): rhels6.5 → rhels6.5 … rhels6.0, rhels6; a part with a leading zero
 * (ubuntu22.04) ends the list there.
 */
export function osSearchList(os: string): string[] {
  const base = os.split("-")[0] ?? os;
  const words = base.split(".");
  const list: string[] = [];
  while (words.length > 0 && /^[0-9]+$/.test(words.at(-1) ?? "")) {
    let last = words.pop() ?? "";
    if (/^0[0-9]+$/.test(last)) {
      list.push([...words, last].join("."));
      return list;
    }
    while (Number(last) >= 0) {
      list.push([...words, last].join("."));
      if (/^0[0-9]/.test(last)) list.push([...words, String(Number(last))].join("."));
      last = String(Number(last) - 1).padStart(last.length, "0");
    }
  }
  list.push(words.join("."));
  if (/^leap15(\..*)?$/.test(base)) list.push("sle15");
  return list;
}

const EXTENSIONS = [
  "otherpkgs.pkglist",
  "imgcapture.exlist",
  "pkglist",
  "tmpl",
  "exlist",
  "postinstall",
  "synclist",
  "repolist",
];

/**
 * Whether a profile file is meant for this OS and architecture (_profile_file_matches,
 * SvrUtils.pm:519-558): no suffix, the architecture, an OS name of the search list or the generic
 * one, optionally followed by the architecture.
 */
function fileMatches(file: string, osver: string, genos: string, arch: string): boolean {
  let stem = file;
  for (const extension of EXTENSIONS) {
    if (stem.endsWith(`.${extension}`)) {
      stem = stem.slice(0, -extension.length - 1);
      break;
    }
  }
  if (stem === file) stem = stem.replace(/\.[^.]+$/, "");
  const parts = stem.split(".").slice(1);
  if (parts.length === 0) return true;
  const suffix = parts.join(".");
  if (suffix === arch) return true;
  const valid = new Set([...osSearchList(osver), ...(genos ? [genos] : [])]);
  if (valid.has(suffix)) return true;
  if (parts.length > 1 && parts.at(-1) === arch) return valid.has(parts.slice(0, -1).join("."));
  return false;
}

/** Profiles named by the files copycds globs (SvrUtils.pm:819-843 install, 1263-1288 diskless). */
function profilesOf(
  platform: string,
  kind: ProfileKind,
  osver: string,
  arch: string,
  genos: string,
): string[] {
  const files = SHIPPED_PROFILE_FILES[kind][PLATFORM_ALIASES[platform] ?? platform] ?? [];
  const globbed =
    kind === "install"
      ? files.filter((f) => /^(compute|service)\./.test(f) && f.endsWith("tmpl"))
      : files.filter((f) => f.startsWith("compute.") && f.endsWith("pkglist"));
  const profiles = globbed
    .filter((f) => fileMatches(f, osver, genos, arch))
    .map((f) => f.slice(0, f.indexOf(".")));
  return [...new Set(profiles)].sort();
}

/** Finds a profile's files as get_file_name and get_postinstall_file_name do (SvrUtils.pm:560-707). */
class FileLookup {
  readonly #files: ReadonlySet<string>;
  readonly #dir: string;
  readonly #osver: string;
  readonly #arch: string;
  readonly #genos: string | undefined;
  readonly #postinstallGenos: string;

  constructor(kind: ProfileKind, platform: string, osver: string, arch: string, genos: string) {
    this.#files = new Set(SHIPPED_PROFILE_FILES[kind][PLATFORM_ALIASES[platform] ?? platform] ?? []);
    this.#dir = `${SHARE}/${kind}/${platform}`;
    this.#osver = osver;
    this.#arch = arch;
    // SvrUtils.pm:796-797, 1239-1240: Leap looks files up without the generic name, except the
    // postinstall script (:1311-1312).
    this.#genos = /^leap15/.test(osver) ? undefined : genos;
    this.#postinstallGenos = genos;
  }

  #first(candidates: readonly string[]): string | undefined {
    const hit = candidates.find((name) => this.#files.has(name));
    return hit ? `${this.#dir}/${hit}` : undefined;
  }

  /** get_file_name (SvrUtils.pm:560-599): OS, generic OS, each OS of the search list, arch, none. */
  find(profile: string, extension: string): string | undefined {
    const os = this.#osver;
    const arch = this.#arch;
    const names = [`${profile}.${os}.${arch}.${extension}`, `${profile}.${os}.${extension}`];
    if (this.#genos)
      names.push(`${profile}.${this.#genos}.${arch}.${extension}`, `${profile}.${this.#genos}.${extension}`);
    for (const base of osSearchList(os))
      names.push(`${profile}.${base}.${arch}.${extension}`, `${profile}.${base}.${extension}`);
    names.push(`${profile}.${arch}.${extension}`, `${profile}.${extension}`);
    return this.#first(names);
  }

  /**
   * get_postinstall_file_name (SvrUtils.pm:627-707): the OS, then the OS cut at each `.`, then
   * the letters with two digits and with one digit, the generic OS, the arch, none.
   */
  postinstall(profile: string): string | undefined {
    const os = this.#osver;
    const arch = this.#arch;
    const file = (base: string) => [
      `${profile}.${base}.${arch}.postinstall`,
      `${profile}.${base}.postinstall`,
    ];
    const cut = (text: string) => text.slice(0, text.lastIndexOf("."));
    let osbase = cut(os);
    const names = [
      `${profile}.${os}.${arch}.postinstall`,
      `${profile}.${osbase}.${arch}.postinstall`,
      `${profile}.${os}.postinstall`,
      `${profile}.${osbase}.postinstall`,
    ];
    while (osbase.includes(".")) {
      osbase = cut(osbase);
      names.push(...file(osbase));
    }
    const two = /([a-zA-Z]+\d\d)/.exec(os);
    if (two?.[1]) names.push(...file(two[1]));
    const one = /([a-zA-Z]+\d)/.exec(os);
    if (one?.[1]) names.push(...file(one[1]));
    if (this.#postinstallGenos) names.push(...file(this.#postinstallGenos));
    names.push(`${profile}.${arch}.postinstall`, `${profile}.postinstall`);
    return this.#first(names);
  }
}
