/**
 * One address, one node: xCAT accepts two nodes with the same `ip`, `mac` or `bmc` (chdef checks
 * nothing across nodes), and then DHCP hands one address to two machines and IPMI reaches the wrong
 * one. These rules compare the values across every Node of the stack.
 */
import { type ClusterView, describeResource, type NodeView, type Violation } from "./cluster-view";

export type AddressAttribute = "ip" | "mac" | "bmc";

/**
 * The addresses a node's attribute holds, as compared: `mac` may list several interfaces,
 * `|`-separated, each optionally followed by `!hostname` (xCAT's mac table format), compared without
 * case like the hex digits they are; `bmc` is a hostname or address, also without case.
 */
export function addressesOf(node: NodeView, attribute: AddressAttribute): string[] {
  const value = node.attributes[attribute]?.trim();
  if (!value) return [];
  if (attribute === "ip") return [value];
  if (attribute === "bmc") return [value.toLowerCase()];
  const entries = value
    .split("|")
    .map((entry) => (entry.split("!")[0] ?? "").trim().toLowerCase())
    .filter((entry) => entry !== "");
  return [...new Set(entries)];
}

/** Every node after the first that holds an address another node already holds. */
export function duplicateAddresses(view: ClusterView, attribute: AddressAttribute): Violation[] {
  const holder = new Map<string, NodeView>();
  const violations: Violation[] = [];
  for (const node of view.nodes) {
    for (const address of addressesOf(node, attribute)) {
      const first = holder.get(address);
      if (first === undefined) {
        holder.set(address, node);
        continue;
      }
      violations.push({
        message: `${attribute} ${address} is given to both ${describeResource(first)} (node ${first.nodeName}) and ${describeResource(node)} (node ${node.nodeName}); each node needs its own ${attribute}.`,
        urn: node.urn,
      });
    }
  }
  return violations;
}
