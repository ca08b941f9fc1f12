/**
 * One node, one Deployment (and one PowerState): two Deployments on one node reinstall it with
 * whichever image ran last, and two PowerStates toggle it on every update.
 *
 * A target's `nodes` is a list of names or an xCAT noderange. It is expanded from the stack alone:
 * node names, ranges (`r01n[01-32]`, `n1-n5`, `n1+3`), exclusions and intersections
 * (src/contract/noderange.ts), and groups through the `groups` of the stack's Node resources. What
 * the stack cannot know stays as written: a group whose members are defined outside the stack, or an
 * attribute selector (`mgt==ipmi`), counts as one name, so two targets that write the same such name
 * still collide but one of them and a node it contains on the management node do not; a target or
 * node groups unknown during preview are skipped.
 */
import { compressNoderange, expandNoderange, type NoderangeContext } from "../contract/noderange";
import { type ClusterView, describeResource, type TargetView, type Violation } from "./cluster-view";

/** The noderange context the stack itself gives: its nodes, and groups as their `groups` make them. */
export function stackNoderangeContext(view: ClusterView): NoderangeContext {
  const nodes = new Set(view.nodes.map((node) => node.nodeName));
  const members = new Map<string, string[]>();
  for (const node of view.nodes) {
    for (const group of node.groups ?? []) {
      const list = members.get(group) ?? [];
      list.push(node.nodeName);
      members.set(group, list);
    }
  }
  return { isNode: (name) => nodes.has(name), groupMembers: (name) => members.get(name) };
}

/** The node names a target covers, or undefined when its `nodes` is not known yet. */
export function targetNodes(target: TargetView, context: NoderangeContext): readonly string[] | undefined {
  if (target.nodes === undefined) return undefined;
  const ranges = typeof target.nodes === "string" ? [target.nodes] : target.nodes;
  return [...new Set(ranges.flatMap((range) => expandNoderange(range, context)))];
}

/** For each pair of targets that share nodes: one violation naming both and the shared nodes. */
export function nodesInTwoTargets(
  targets: readonly TargetView[],
  context: NoderangeContext,
  what: "Deployment" | "PowerState",
): Violation[] {
  const owner = new Map<string, TargetView>();
  const shared = new Map<string, { first: TargetView; second: TargetView; nodes: string[] }>();
  for (const target of targets) {
    for (const node of targetNodes(target, context) ?? []) {
      const first = owner.get(node);
      if (first === undefined) {
        owner.set(node, target);
        continue;
      }
      const key = `${first.urn}\n${target.urn}`;
      const entry = shared.get(key) ?? { first, second: target, nodes: [] };
      entry.nodes.push(node);
      shared.set(key, entry);
    }
  }
  return [...shared.values()].map(({ first, second, nodes }) => ({
    message:
      `${describeResource(first)} and ${describeResource(second)} both cover ${compressNoderange(nodes)}; ` +
      `a node belongs to one ${what}, or each update ${what === "Deployment" ? "reinstalls it with whichever image runs last" : "switches its power back and forth"}.`,
    urn: second.urn,
  }));
}

export const nodesInTwoDeployments = (view: ClusterView): Violation[] =>
  nodesInTwoTargets(view.deployments, stackNoderangeContext(view), "Deployment");

export const nodesInTwoPowerStates = (view: ClusterView): Violation[] =>
  nodesInTwoTargets(view.powerStates, stackNoderangeContext(view), "PowerState");
