/**
 * The value a node of the stack will hold on the management node, as xCAT works it out when it
 * reads the node: the node's own value, else that of the first of its groups, in the order of its
 * `groups`, that has one, expanded per node name when it is a regex value
 * (src/contract/inherited-value.ts).
 * This is what an import writes for every rack node: the address lives on the group, as
 * `|r(\d+)n(\d+)|10.0.($1+0).($2+0)|`, and the node has none of its own.
 *
 * Only the stack's own Groups are known here; a group defined outside the stack contributes
 * nothing (the rules then see what the stack alone gives). A value unknown during preview, or a
 * regex value using what regex-values.ts does not evaluate, gives no value: the rules skip it.
 */
import { inheritedValue, type StoredValue, UNKNOWN_STORED } from "../contract/inherited-value";
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
  const storedIn = (view: NodeView | GroupView): StoredValue =>
    unknownIn(view.unknownAttributes, attribute) ? UNKNOWN_STORED : view.attributes[attribute];
  const own = storedIn(node);
  // Groups not known during preview: only the node's own value can be.
  if (node.groups === undefined && (own === undefined || own === "")) return undefined;
  const known = (node.groups ?? []).flatMap((name) => groups.get(name) ?? []);
  const found = inheritedValue(node.nodeName, own, known, storedIn);
  if (found === undefined || found === UNKNOWN_STORED || found.value.kind !== "value") return undefined;
  const { stored, group } = found;
  const value = found.value.value;
  if (value === stored)
    return group === undefined ? { value } : { value, source: `from ${describeResource(group)}` };
  const where = group === undefined ? "its own" : `${describeResource(group)}'s`;
  return { value, source: `from ${where} ${stored}` };
}

/** The stack's Groups by their xCAT name. */
export function groupsByName(view: ClusterView): ReadonlyMap<string, GroupView> {
  return new Map(view.groups.map((group) => [group.groupName, group]));
}
