/**
 * One address, one node: xCAT accepts two nodes with the same `ip`, `mac` or `bmc` (chdef checks
 * nothing across nodes), and then DHCP hands one address to two machines and IPMI reaches the wrong
 * one. These rules compare the values across every Node of the stack, as each node will hold them:
 * its own or inherited from its groups, regex values expanded for it (held-values.ts), so a literal
 * ip equal to what a group's regex gives a rack node is caught.
 */
import { type ClusterView, describeNode, type NodeView, type Violation } from "./cluster-view";
import { groupsByName, type HeldValue, heldValue } from "./held-values";

export type AddressAttribute = "ip" | "mac" | "bmc";

/**
 * The addresses a node's attribute holds, as compared: `mac` may list several interfaces,
 * `|`-separated, each optionally followed by `!hostname` (xCAT's mac table format), compared without
 * case like the hex digits they are; `bmc` is a hostname or address, also without case.
 */
export function addressesOf(held: HeldValue | undefined, attribute: AddressAttribute): string[] {
  const value = held?.value.trim();
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
  const groups = groupsByName(view);
  const holder = new Map<string, { node: NodeView; held: HeldValue }>();
  const violations: Violation[] = [];
  for (const node of view.nodes) {
    const held = heldValue(node, attribute, groups);
    for (const address of addressesOf(held, attribute)) {
      const first = holder.get(address);
      if (first === undefined || held === undefined) {
        if (held !== undefined) holder.set(address, { node, held });
        continue;
      }
      violations.push({
        message: `${attribute} ${address} is given to both ${describeHolder(first.node, first.held)} and ${describeHolder(node, held)}; each node needs its own ${attribute}.`,
        urn: node.urn,
      });
    }
  }
  return violations;
}

/** `Node "r02n01" (node r02n01, from Group "rack02"'s |…|)`: the node and, when inherited or a regex, where its value comes from. */
function describeHolder(node: NodeView, held: HeldValue): string {
  const source = held.source === undefined ? "" : `, ${held.source}`;
  return describeNode(node, source);
}
