/**
 * A node's address inside a declared network: xCAT's DHCP configuration (makedhcp) serves only the
 * networks of its networks table, so a node whose `ip` lies outside all of them gets no lease. The
 * rule applies only when the stack declares at least one Network (a stack that manages nodes alone
 * relies on networks defined elsewhere). The ip is the one the node will hold: its own or its
 * groups', a regex value expanded for it (held-values.ts).
 */
import { parseIpv4 } from "../provider/validation";
import {
  type ClusterView,
  describeNode,
  describeResource,
  type NetworkView,
  type Violation,
} from "./cluster-view";
import { groupsByName, heldValue } from "./held-values";

function contains(network: NetworkView, ip: number): boolean {
  const net = parseIpv4(network.net);
  const mask = parseIpv4(network.mask);
  if (net === undefined || mask === undefined) return false;
  return (ip & mask) >>> 0 === (net & mask) >>> 0;
}

/** Nodes whose IPv4 `ip` lies in none of the stack's Networks. */
export function nodesOutsideNetworks(view: ClusterView): Violation[] {
  if (view.networks.length === 0) return [];
  const listed = view.networks
    .slice(0, 3)
    .map((network) => `${describeResource(network)} ${network.net}/${network.mask}`)
    .join(", ");
  const networks = view.networks.length > 3 ? `${listed}, …` : listed;
  const groups = groupsByName(view);
  const violations: Violation[] = [];
  for (const node of view.nodes) {
    const held = heldValue(node, "ip", groups);
    const ip = held?.value.trim();
    const bits = ip ? parseIpv4(ip) : undefined;
    if (ip === undefined || bits === undefined) continue;
    if (view.networks.some((network) => contains(network, bits))) continue;
    violations.push({
      message: `${describeNode(node)} has ip ${ip}${held?.source ? ` (${held.source})` : ""}, outside every Network of the stack (${networks}); fix the address or declare its network.`,
      urn: node.urn,
    });
  }
  return violations;
}
