/**
 * Name services that follow the program (issue #29 item 2): a node's /etc/hosts entry
 * (makehosts), DNS record (makedns) and DHCP reservation (makedhcp) on the management node.
 *
 * Why the provider runs them: makedhcp gives a node a fixed address only when its name resolves
 * on the management node (xCAT-server/lib/xcat/plugins/dhcp.pm master:782, `getipaddr($hname)`;
 * no host is written without an address, master:249), and nodeset runs makedhcp itself
 * (xnba.pm master:857-872, grub2.pm master:792-809). A node in neither /etc/hosts nor DNS does
 * not network-boot as defined, so a node the program defines gets its entries as it is created,
 * and keeps them when its ip, mac, host names or groups change. Only nodes with an `ip` of their
 * own are followed: one whose address comes from a group's regex is not (makehosts would skip it
 * when nothing resolves it, and makedns refuse it).
 *
 * What turns each off: the stack setting `xcat:nameServices` (a list of hosts, dns, dhcp, or
 * `none`), a node's `nameServices` input, and the management node itself: DNS only where it
 * serves DNS (site.nameservers names it, as xcatconfig sets), DHCP not where site.dhcpsetup
 * says n (the same test as xnba.pm master:860).
 *
 * Deleting a node removes its DNS record and DHCP reservation first (makedns -d, makedhcp -d).
 * Its /etc/hosts line stays: xcatws has no route for `makehosts -d` (xcatws.cgi master:153-163,
 * POST only), and the provider says so.
 */

export type NameService = "hosts" | "dns" | "dhcp";
export const NAME_SERVICES: readonly NameService[] = ["hosts", "dns", "dhcp"];

/** Which name services run. */
export type NameServiceChoice = Readonly<Record<NameService, boolean>>;

export const ALL_NAME_SERVICES: NameServiceChoice = { hosts: true, dns: true, dhcp: true };

/** A command the provider sends, in the order it is sent. */
export type NameServiceStep = "makehosts" | "makedns" | "makedhcp" | "makedns -d" | "makedhcp -d";

/** Node attributes whose change changes what the name services hold (groups may give the ip). */
export const NAME_ATTRIBUTES = ["ip", "mac", "hostnames", "groups"] as const;

/** What the management node's site table says about its services. */
export interface SiteServices {
  /** site.dhcpsetup, if set. */
  readonly dhcpsetup?: string | undefined;
  /** site.nameservers, if set. */
  readonly nameservers?: string | undefined;
  /** site.master, if set. */
  readonly master?: string | undefined;
}

/**
 * Parses the stack setting `xcat:nameServices`: `hosts,dns,dhcp` (the default), any part of
 * it, or `none`.
 *
 * @example
 * parseNameServices("hosts,dns"); // { hosts: true, dns: true, dhcp: false }
 */
export function parseNameServices(text: string | undefined): NameServiceChoice {
  if (text === undefined || text.trim() === "") return ALL_NAME_SERVICES;
  const words = text
    .split(",")
    .map((word) => word.trim())
    .filter((word) => word !== "");
  if (words.length === 1 && words[0] === "none") return { hosts: false, dns: false, dhcp: false };
  const unknown = words.filter((word) => !(NAME_SERVICES as readonly string[]).includes(word));
  if (unknown.length > 0) {
    throw new Error(
      `xcat:nameServices: '${unknown.join("', '")}' is not a name service; give a comma list of ` +
        `${NAME_SERVICES.join(", ")}, or none`,
    );
  }
  return { hosts: words.includes("hosts"), dns: words.includes("dns"), dhcp: words.includes("dhcp") };
}

/** Problems of a node's `nameServices` input: an object of booleans `{ hosts?, dns?, dhcp? }`. */
export function nameServicesInputProblems(value: unknown): string[] {
  if (value === undefined) return [];
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return ["nameServices must be an object such as { dhcp: false } (keys hosts, dns, dhcp; true or false)"];
  }
  return Object.entries(value).flatMap(([key, flag]) => {
    if (!(NAME_SERVICES as readonly string[]).includes(key))
      return [`nameServices.${key}: not a name service; the keys are ${NAME_SERVICES.join(", ")}`];
    if (typeof flag !== "boolean" && typeof flag !== "string")
      return [`nameServices.${key} must be true or false`];
    return [];
  });
}

/**
 * What runs: on in the stack, not turned off by the resource, and offered by the management node.
 *
 * @example
 * effectiveChoice(ALL_NAME_SERVICES, { dhcp: false }, { dhcpsetup: "y", nameservers: "10.0.0.1", master: "10.0.0.1" });
 * // { hosts: true, dns: true, dhcp: false }
 */
export function effectiveChoice(
  stack: NameServiceChoice,
  resource: Readonly<Partial<Record<NameService, unknown>>> | undefined,
  site: SiteServices,
): NameServiceChoice {
  const own = (service: NameService) => resource?.[service] !== false && resource?.[service] !== "false";
  return {
    hosts: stack.hosts && own("hosts"),
    dns: stack.dns && own("dns") && servesDns(site),
    dhcp: stack.dhcp && own("dhcp") && nodesetRunsMakedhcp(site),
  };
}

/** Whether the management node runs DHCP: site.dhcpsetup not n (the test of xnba.pm master:860, before nodeset's makedhcp). */
export function nodesetRunsMakedhcp(site: SiteServices): boolean {
  return !/0|n|N/.test(site.dhcpsetup ?? "");
}

/** Whether the management node serves DNS itself: site.nameservers names it (xcatconfig sets it to the master). */
export function servesDns(site: SiteServices): boolean {
  const servers = (site.nameservers ?? "").split(",").map((server) => server.trim());
  return servers.includes("<xcatmaster>") || (site.master !== undefined && servers.includes(site.master));
}

/**
 * The commands a node create or update sends, in order: hosts before DNS (makedns reads
 * /etc/hosts) and both before DHCP (makedhcp resolves the name). An update sends them only when an
 * attribute of {@link NAME_ATTRIBUTES} changed.
 *
 * @example
 * stepsForWrite(undefined, { ip: "10.0.0.5" }, ALL_NAME_SERVICES); // ["makehosts", "makedns", "makedhcp"]
 * stepsForWrite(undefined, { arch: "x86_64" }, ALL_NAME_SERVICES); // [] (no ip of its own)
 * stepsForWrite({ ip: "10.0.0.5", arch: "x86_64" }, { ip: "10.0.0.5", arch: "ppc64le" }, ALL_NAME_SERVICES); // []
 */
export function stepsForWrite(
  before: Readonly<Record<string, string>> | undefined,
  after: Readonly<Record<string, string>>,
  choice: NameServiceChoice,
): NameServiceStep[] {
  // A node without an ip of its own has nothing for makehosts to write (hosts.pm skips it) and
  // makedns would refuse it; one whose ip comes from a group's regex is not followed (docs).
  if (!after.ip) return [];
  if (before !== undefined && !NAME_ATTRIBUTES.some((name) => (before[name] ?? "") !== (after[name] ?? "")))
    return [];
  const steps: NameServiceStep[] = [];
  if (choice.hosts) steps.push("makehosts");
  if (choice.dns) steps.push("makedns");
  if (choice.dhcp) steps.push("makedhcp");
  return steps;
}

/** The commands a node delete sends before the node is removed (see the header for /etc/hosts). */
export function stepsForDelete(choice: NameServiceChoice): NameServiceStep[] {
  const steps: NameServiceStep[] = [];
  if (choice.dns) steps.push("makedns -d");
  if (choice.dhcp) steps.push("makedhcp -d");
  return steps;
}

/**
 * The line preview and up print for a node's name-service commands. A delete on a management
 * node whose provider runs `hosts` alone sends nothing and still says so, with why its
 * /etc/hosts line stays (an empty list read as a line cut short).
 */
export function describeSteps(node: string, steps: readonly NameServiceStep[], deleting: boolean): string {
  const hostsNote = deleting ? " (its /etc/hosts line stays: xCAT's REST API cannot run makehosts -d)" : "";
  return `xcat:Node ${node}: name services: ${steps.length > 0 ? steps.join(", ") : "none sent"}${hostsNote}`;
}

/** The line check prints for a planned write: what `up` will send for the node. */
export function describePlannedSteps(node: string, steps: readonly NameServiceStep[]): string {
  return `xcat:Node ${node}: up sends name services: ${steps.join(", ")}`;
}
