/**
 * The value a node of the stack will hold on the management node, as xCAT works it out when it
 * reads the node: the node's own value, else that of the first of its groups, in the order of its
 * `groups`, that has one (Table.pm getNodeAttribs_nosub_returnany 2974-3100, xcat-behavior.md
 * §5.2), then expanded per node name when it is a regex value (src/contract/regex-values.ts).
 * This is what an import writes for every rack node: the address lives on the group, as
 * `|r(\d+)n(\d+)|10.0.($1+0).($2+0)|`, and the node has none of its own.
 *
 * Only the stack's own Groups are known here; a group defined outside the stack contributes
 * nothing (the rules then see what the stack alone gives). A value unknown during preview, or a
 * regex value using what regex-values.ts does not evaluate, gives no value: the rules skip it.
 */
import { nodeValue } from "../contract/regex-values";
import {
  type ClusterView,
  describeResource,
  EVERY_ATTRIBUTE,
  type GroupView,
  type NodeView,
} from "./cluster-view";

export interface HeldValue {
  readonly value: string;
  /** Where the value comes from when it is not the node's literal input: `from Group "rack02"'s |…|`. */
  readonly source?: string;
}

const unknownIn = (attributes: ReadonlySet<string>, attribute: string): boolean =>
  attributes.has(attribute) || attributes.has(EVERY_ATTRIBUTE);

/** The value `node` holds for `attribute`, or undefined when it holds none or it cannot be known. */
export function heldValue(
  node: NodeView,
  attribute: string,
  groups: ReadonlyMap<string, GroupView>,
): HeldValue | undefined {
  if (unknownIn(node.unknownAttributes, attribute)) return undefined;
  const own = node.attributes[attribute];
  if (own !== undefined && own !== "") return expanded(node, own, undefined);
  if (node.groups === undefined) return undefined;
  for (const name of node.groups) {
    const group = groups.get(name);
    if (group === undefined) continue;
    if (unknownIn(group.unknownAttributes, attribute)) return undefined;
    const value = group.attributes[attribute];
    if (value !== undefined && value !== "") return expanded(node, value, group);
  }
  return undefined;
}

function expanded(node: NodeView, value: string, group: GroupView | undefined): HeldValue | undefined {
  const result = nodeValue(value, node.nodeName);
  if (result.kind !== "value") return undefined;
  const regex = result.value !== value;
  if (!regex) return group === undefined ? { value } : { value, source: `from ${describeResource(group)}` };
  const where = group === undefined ? "its own" : `${describeResource(group)}'s`;
  return { value: result.value, source: `from ${where} ${value}` };
}

/** The stack's Groups by their xCAT name. */
export function groupsByName(view: ClusterView): ReadonlyMap<string, GroupView> {
  return new Map(view.groups.map((group) => [group.groupName, group]));
}
