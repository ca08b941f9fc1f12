/**
 * A node's group that looks like a typo of one the stack defines: xCAT takes any group name (a
 * plain tag such as `all` or `rack01` needs no definition and inherits nothing), so `gpuu` beside
 * a Group `gpu` is accepted, and the node silently misses every attribute `gpu` would give it.
 * Only near-misses are reported, as `pulumi-xcat import` does for a cluster's nodes; a group the
 * stack does not define and that is near none of its Groups (defined on the management node by
 * hand, or a tag) is left alone.
 */
import { closestName } from "../provider/edit-distance";
import { type ClusterView, describeNode, type Violation } from "./cluster-view";

/** Nodes naming a group that no Group of the stack defines but that is near one that does. */
export function nodeGroupTypos(view: ClusterView): Violation[] {
  const defined = new Set(view.groups.map((group) => group.groupName));
  if (defined.size === 0) return [];
  const violations: Violation[] = [];
  for (const node of view.nodes) {
    for (const group of node.groups ?? []) {
      if (defined.has(group)) continue;
      const closest = closestName(group, defined);
      if (closest === undefined) continue;
      violations.push({
        message: `${describeNode(node)} names group '${group}', which no Group of the stack defines (did you mean '${closest}'?); the node gets none of '${closest}''s attributes.`,
        urn: node.urn,
      });
    }
  }
  return violations;
}
