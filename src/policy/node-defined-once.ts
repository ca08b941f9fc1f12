/**
 * One definition per node: a node held by two resources of the stack (two NodeSets whose rows
 * both name it, or a NodeSet and a Node, or two Nodes) has two owners that each write it with
 * their own values, so every update turns it back and forth, and deleting either resource deletes
 * the node the other still declares (a NodeSet's delete is one DELETE of its noderange,
 * node-set.ts). Each node is compared by its xCAT name within one management node (policies.ts).
 */
import { type ClusterView, describeNode, type NodeView, type Violation } from "./cluster-view";

/** Every node a second resource also holds: one violation per later holder, naming both. */
export function nodesDefinedTwice(view: ClusterView): Violation[] {
  const holder = new Map<string, NodeView>();
  const violations: Violation[] = [];
  for (const node of view.nodes) {
    const first = holder.get(node.nodeName);
    if (first === undefined) {
      holder.set(node.nodeName, node);
      continue;
    }
    violations.push({
      message:
        `node ${node.nodeName} is held by both ${describeNode(first)} and ${describeNode(node)}; ` +
        "a node belongs to one resource, or each update writes it with the other's values and deleting either deletes it.",
      urn: node.urn,
    });
  }
  return violations;
}
