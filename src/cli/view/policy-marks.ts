/**
 * The policy pack's rules that name nodes, run over the stack's resources the view already reads
 * (`pulumi stack export`), so the page marks a node the pack would report: two nodes with one ip,
 * MAC or BMC address (unique-addresses.ts), a group that looks like a typo of one the stack defines
 * (node-group-typo.ts), an ip outside every Network of the stack (node-in-network.ts). The same pure
 * functions the pack runs at preview (src/policy), on the values the stack last recorded: a
 * resource's outputs, or the inputs of a create or update under way (as the pack sees a resource an
 * update changes). Only the stack's own management node counts, as for the drawing.
 *
 * A finding goes on the node whose resource the pack reports it on (its URN): of two nodes sharing
 * an address, the second in the stack's order, its message naming both. Secret values (wrapped in
 * the export) are not strings and are not compared, as the pack skips unknowns. Pure.
 */
import { clusterView, type StackResource } from "../../policy/cluster-view";
import { nodeGroupTypos } from "../../policy/node-group-typo";
import { nodesOutsideNetworks } from "../../policy/node-in-network";
import { duplicateAddresses } from "../../policy/unique-addresses";
import { managementNodeRoute, nameOfUrn, typeToken } from "../stack-resources";
import { stateResources } from "./stack-nodes";

/** Per node name: the pack's messages about it, each with its rule's name. */
export function policyFindings(exported: unknown): Map<string, string[]> {
  // By URN, the later entry winning: an operation under way carries the inputs the update brings.
  const byUrn = new Map<string, StackResource>();
  for (const resource of stateResources(exported)) {
    if (resource.urn === undefined || managementNodeRoute(resource).via !== "stack") continue;
    const props =
      resource.outputs && Object.keys(resource.outputs).length > 0 ? resource.outputs : resource.inputs;
    byUrn.set(resource.urn, {
      urn: resource.urn,
      name: nameOfUrn(resource.urn),
      type: typeToken(resource),
      props: props ?? {},
    });
  }
  const view = clusterView([...byUrn.values()]);
  const rules: Array<[string, ReturnType<typeof nodeGroupTypos>]> = [
    ["unique-node-ip", duplicateAddresses(view, "ip")],
    ["unique-node-mac", duplicateAddresses(view, "mac")],
    ["unique-node-bmc", duplicateAddresses(view, "bmc")],
    ["node-ip-in-network", nodesOutsideNetworks(view)],
    ["node-group-defined", nodeGroupTypos(view)],
  ];
  const nodeOf = new Map(view.nodes.map((node) => [node.urn, node.nodeName]));
  const findings = new Map<string, string[]>();
  for (const [rule, violations] of rules) {
    for (const violation of violations) {
      const node = nodeOf.get(violation.urn);
      if (node === undefined) continue;
      const list = findings.get(node) ?? [];
      list.push(`${rule}: ${violation.message}`);
      findings.set(node, list);
    }
  }
  return findings;
}
