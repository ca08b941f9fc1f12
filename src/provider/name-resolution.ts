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
import { effectiveChoice, type NameServiceChoice, nodesetRunsMakedhcp } from "./name-services";
import { siteServicesOf } from "./node-name-services";
import { plannedInputs } from "./planned-objects";
import { processSettings } from "./process-context";
import { howToSet } from "./setting-advice";
import { isUnknown } from "./validation";

/** What preview knows about one node's address. */
export interface NodeAddress {
  /** The `ip` its xcat:Node declares: a string, Pulumi's unknown value, or undefined. */
  readonly programIp: unknown;
  /** The `ip` lsdef reports for it (own or inherited), if any. */
  readonly serverIp: string | undefined;
  /** The name services that run for it. */
  readonly choice: NameServiceChoice;
}

/**
 * Whether the node's name will resolve on the management node when nodeset runs.
 *
 * @example
 * willResolve({ programIp: "10.0.0.5", serverIp: undefined, choice: ALL_NAME_SERVICES }); // true
 * willResolve({ programIp: undefined, serverIp: undefined, choice: ALL_NAME_SERVICES }); // false
 */
export function willResolve(node: NodeAddress): boolean {
  if (!node.choice.hosts && !node.choice.dns) return true; // resolved by the site: not visible here
  if (isUnknown(node.programIp)) return true; // known after apply: up writes it
  return Boolean(node.programIp) || Boolean(node.serverIp);
}

/** The failure reason for the nodes that will not resolve. */
export function unresolvedReason(kind: string, nodes: readonly string[]): string {
  const listed =
    nodes.length > 5 ? `${nodes.slice(0, 5).join(", ")} and ${nodes.length - 5} more` : nodes.join(", ");
  const these = nodes.length === 1 ? "its name" : "their names";
  const { origin } = processSettings();
  const dhcpOnly = howToSet(
    "nameServices",
    origin.explicitProvider === undefined ? "dhcp" : "[dhcp]",
    origin,
  );
  return (
    `${kind}: nodes: ${listed} ${nodes.length === 1 ? "has" : "have"} no ip, in the program or on the management ` +
    `node, so ${these} will not resolve there and nodeset's makedhcp would give ${nodes.length === 1 ? "it" : "them"} ` +
    "no address to network-boot with (xCAT dhcp.pm resolves each node's name). Set attributes.ip on the xcat:Node " +
    "(or an ip on one of its groups); if the site resolves node names itself, turn hosts and dns off: " +
    `${dhcpOnly} ` +
    "(or use the node's nameServices input). Nothing was changed."
  );
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
): Promise<string[]> {
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
  const serverIpOf = (node: string) => (read?.get(node) ?? serverAttributes?.get(node))?.ip;
  return unsure.filter(
    (node) =>
      !willResolve({ programIp: programIpOf(node), serverIp: serverIpOf(node), choice: choiceOf(node) }),
  );
}
