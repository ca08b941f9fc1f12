/**
 * A Deployment's preview check that its nodes' names will resolve on the management node (issue
 * #29 item 2). nodeset runs makedhcp itself (xnba.pm master:857-872, grub2.pm master:792-809), and
 * makedhcp gives a node a fixed address only when its name resolves there (dhcp.pm master:782,
 * `getipaddr($hname)`; no address written without one, master:249): a node whose name does not
 * resolve is sent to network boot and gets no address.
 *
 * xCAT's REST API cannot read the management node's /etc/hosts or DNS, so the decision is made
 * from what preview can read without writing: a node resolves when it has an address of its own,
 * in the program (its xcat:Node's `ip`, which up writes with makehosts and makedns) or on the
 * management node (lsdef's `ip`, its own or a group's, as makehosts writes it). A node for which
 * hosts and DNS are both off has its name resolved by the site, which preview cannot see: it is
 * not refused; nor is any node where site.dhcpsetup says no (nodeset then runs no makedhcp, the test
 * of xnba.pm master:860).
 */
import type { XcatClient } from "../client";
import { inheritedValue, type StoredValue, UNKNOWN_STORED } from "../contract/inherited-value";
import { effectiveChoice, type NameServiceChoice, nodesetRunsMakedhcp } from "./name-services";
import { siteServicesOf } from "./node-name-services";
import { plannedInputs } from "./planned-objects";
import { processSettings } from "./process-settings";
import { howToSet } from "./setting-advice";
import { isUnknown } from "./validation";

/** What preview knows about one node's address. */
export interface NodeAddress {
  /** The `ip` its xcat:Node declares: a string, Pulumi's unknown value, or undefined. */
  readonly programIp: unknown;
  /** The `ip` lsdef reports for it (own or inherited, expanded), if any. */
  readonly serverIp: string | undefined;
  /** The name services that run for it. */
  readonly choice: NameServiceChoice;
  /** Whether the node is on the management node now (lsdef lists it). */
  readonly onServer?: boolean | undefined;
  /**
   * The address the program gives it through its groups (its xcat:Node's `groups`, the program's
   * xcat:Group `ip`s, in order), and where from; undefined when the program gives none.
   */
  readonly fromGroups?: { readonly address: string | undefined; readonly source: string } | undefined;
}

/** A node whose name will not resolve, and where its address would come from, if anywhere. */
export interface UnresolvedNode {
  readonly node: string;
  /** e.g. `10.0.2.7 from xcat:Group rack02's |r(\d+)n(\d+)|10.0.($1+0).($2+0)|`; undefined: no ip anywhere. */
  readonly source?: string;
}

/**
 * Why the node's name will not resolve on the management node when nodeset runs, or undefined
 * when it will (or preview cannot tell). up runs makehosts and makedns only for an ip a node
 * declares itself (name-services.ts stepsForWrite): an address a group gives, by a literal or a
 * regex, reaches /etc/hosts or DNS only when someone runs makehosts or makedns for the node
 * (hosts.pm writes hosts.ip, group regexes expanded). So a node that is not on the management node
 * yet, or whose address this run gives or changes through a group, cannot be there; a node already
 * on it with the same address may have been written by an earlier makehosts, which preview cannot
 * see (the REST API reads neither /etc/hosts nor DNS): it is let through, and the roll says why a
 * node may be stuck if it hangs (stuck-nodes.ts).
 *
 * @example
 * unresolvedBecause({ programIp: "10.0.0.5", serverIp: undefined, choice: ALL_NAME_SERVICES }); // undefined
 * unresolvedBecause({ programIp: undefined, serverIp: undefined, choice: ALL_NAME_SERVICES }); // { node: "" } (no ip)
 */
export function unresolvedBecause(node: NodeAddress): Omit<UnresolvedNode, "node"> | undefined {
  if (!node.choice.hosts && !node.choice.dns) return undefined; // resolved by the site: not visible here
  if (isUnknown(node.programIp) || node.programIp) return undefined; // up runs makehosts/makedns
  const fromGroups = node.fromGroups;
  if (fromGroups !== undefined) {
    const newHere = node.onServer === false || fromGroups.address !== node.serverIp;
    if (newHere) return { source: fromGroups.source };
    return undefined;
  }
  if (node.serverIp) return undefined;
  return {};
}

/**
 * Whether the node's name will resolve on the management node when nodeset runs.
 *
 * @example
 * willResolve({ programIp: "10.0.0.5", serverIp: undefined, choice: ALL_NAME_SERVICES }); // true
 * willResolve({ programIp: undefined, serverIp: undefined, choice: ALL_NAME_SERVICES }); // false
 */
export function willResolve(node: NodeAddress): boolean {
  return unresolvedBecause(node) === undefined;
}

function listed(nodes: readonly string[]): string {
  return nodes.length > 5 ? `${nodes.slice(0, 5).join(", ")} and ${nodes.length - 5} more` : nodes.join(", ");
}

/** The failure reason for the nodes that will not resolve. */
export function unresolvedReason(kind: string, unresolved: readonly (string | UnresolvedNode)[]): string {
  const entries = unresolved.map((entry) => (typeof entry === "string" ? { node: entry } : entry));
  const { origin } = processSettings();
  const dhcpOnly = howToSet(
    "nameServices",
    origin.explicitProvider === undefined ? "dhcp" : "[dhcp]",
    origin,
  );
  const siteResolves =
    `if the site resolves node names itself, turn hosts and dns off: ${dhcpOnly} ` +
    "(or use the node's nameServices input). Nothing was changed.";
  const parts: string[] = [];
  const bare = entries.filter((entry) => entry.source === undefined).map((entry) => entry.node);
  if (bare.length > 0) {
    const these = bare.length === 1 ? "its name" : "their names";
    parts.push(
      `${kind}: nodes: ${listed(bare)} ${bare.length === 1 ? "has" : "have"} no ip, in the program or on the management ` +
        `node, so ${these} will not resolve there and nodeset's makedhcp would give ${bare.length === 1 ? "it" : "them"} ` +
        "no address to network-boot with (xCAT dhcp.pm resolves each node's name). Set attributes.ip on the xcat:Node " +
        "(or an ip on one of its groups); " +
        siteResolves,
    );
  }
  const sourced = entries.filter((entry) => entry.source !== undefined);
  if (sourced.length > 0) {
    const shown = sourced.slice(0, 5).map((entry) => `${entry.node} (${entry.source})`);
    if (sourced.length > 5) shown.push(`and ${sourced.length - 5} more`);
    const names = sourced.map((entry) => entry.node);
    parts.push(
      `${kind}: nodes: ${shown.join(", ")}: ${sourced.length === 1 ? "its address comes" : "their addresses come"} ` +
        "from a group in xCAT's hosts table, new in this run, and up runs makehosts and makedns only for an ip a " +
        `node declares itself, so ${sourced.length === 1 ? "its name" : "their names"} will not resolve on the ` +
        "management node when nodeset's makedhcp runs, which then gives no address to network-boot with " +
        "(xCAT dhcp.pm resolves each node's name). Give each xcat:Node its own attributes.ip (the same value or " +
        "regex; up then runs makehosts and makedns for it), or write the group first without the Deployment and run " +
        `makehosts ${names.length > 5 ? `${names.slice(0, 5).join(",")},...` : names.join(",")} on the management node (it writes /etc/hosts from hosts.ip, ` +
        "group regexes included) before deploying; " +
        siteResolves,
    );
  }
  return parts.join(" ");
}

/** The address a declared node gets from the program's groups, when the program gives one. */
function programGroupAddress(node: string, declared: Readonly<Record<string, unknown>> | undefined) {
  const groups = declared?.groups;
  if (!Array.isArray(groups)) return undefined;
  const names = groups.filter((group): group is string => typeof group === "string");
  const storedIn = (group: string): StoredValue => {
    const ip = (plannedInputs("xcat:Group", group)?.attributes as Record<string, unknown> | undefined)?.ip;
    if (isUnknown(ip)) return UNKNOWN_STORED;
    return typeof ip === "string" ? ip : undefined;
  };
  const found = inheritedValue(node, undefined, names, storedIn);
  if (found === undefined) return undefined;
  if (found === UNKNOWN_STORED)
    return { address: undefined, source: "an ip known only after apply from one of its groups" };
  const address = found.value.kind === "value" ? found.value.value : undefined;
  const regex = address !== found.stored;
  const what = regex
    ? `${address ?? "an address"} from xcat:Group ${found.group}'s ${found.stored}`
    : `${found.stored} from xcat:Group ${found.group}`;
  return { address, source: what };
}

/**
 * The Deployment's nodes whose names will not resolve, from the program's declared nodes and what
 * xCAT holds: `serverAttributes` when the caller read the nodes' `ip` already, else one read of
 * the `ip` of the nodes that need it (none when every node declares one). A node that
 * `serverAttributes` lacks is read by name. Reads only.
 */
export async function unresolvedNodes(
  client: XcatClient,
  nodes: readonly string[],
  serverAttributes?: ReadonlyMap<string, Readonly<Record<string, string>>>,
): Promise<UnresolvedNode[]> {
  const stack = processSettings().nameServices;
  if (!stack.hosts && !stack.dns) return [];
  const site = await siteServicesOf(client);
  if (!nodesetRunsMakedhcp(site)) return [];
  const declared = new Map(nodes.map((node) => [node, plannedInputs("xcat:Node", node)]));
  const choiceOf = (node: string) =>
    effectiveChoice(stack, declared.get(node)?.nameServices as Record<string, unknown> | undefined, site);
  const programIpOf = (node: string) =>
    (declared.get(node)?.attributes as Record<string, unknown> | undefined)?.ip;
  const unsure = nodes.filter(
    (node) => !willResolve({ programIp: programIpOf(node), serverIp: undefined, choice: choiceOf(node) }),
  );
  if (unsure.length === 0) return [];
  const unread = unsure.filter((node) => !serverAttributes?.has(node));
  // A list read leaves out nodes that do not exist (they have no ip either).
  const read = unread.length > 0 ? await client.nodes.getMany(unread, { attrs: ["ip"] }) : undefined;
  const serverOf = (node: string) => read?.get(node) ?? serverAttributes?.get(node);
  return unsure.flatMap((node) => {
    const because = unresolvedBecause({
      programIp: programIpOf(node),
      serverIp: serverOf(node)?.ip || undefined,
      choice: choiceOf(node),
      onServer: serverOf(node) !== undefined,
      fromGroups: programGroupAddress(node, declared.get(node)),
    });
    return because === undefined ? [] : [{ node, ...because }];
  });
}
