/**
 * The value xCAT gives a node for an attribute when it reads the node: the node's own value, else
 * that of the first of its groups, in the order of its `groups`, that has one (Table.pm
 * getNodeAttribs_nosub_returnany 2974-3100 at xcat2/xcat-core 7733d16, xcat-behavior.md §5.2),
 * then expanded per node name when it is a regex value (regex-values.ts). Shared by the policy
 * pack (the addresses nodes will hold) and the Deployment's preview (where a node's address would
 * come from, and whether anything writes it to /etc/hosts).
 */
import { type NodeValue, nodeValue } from "./regex-values";

/** A stored value that cannot be known yet (Pulumi's unknown during preview). */
export const UNKNOWN_STORED = Symbol("unknown stored value");

/** A value as stored on a node's or a group's row: absent (undefined or ""), a string, or not known yet. */
export type StoredValue = string | undefined | typeof UNKNOWN_STORED;

/** What the node holds and where it comes from. */
export interface InheritedValue<G> {
  /** The value as stored, regex and all. */
  readonly stored: string;
  /** What xCAT gives this node from it. */
  readonly value: NodeValue;
  /** The group it comes from; undefined for the node's own value. */
  readonly group: G | undefined;
}

/**
 * The value `node` holds, from its own stored value and its groups' in order; undefined when none
 * has one, {@link UNKNOWN_STORED} when the one that decides is not known yet.
 *
 * @example
 * inheritedValue("r02n07", undefined, ["rack02"], () => "|r(\\d+)n(\\d+)|10.0.($1+0).($2+0)|");
 * // { stored: "|r(\\d+)n(\\d+)|…|", value: { kind: "value", value: "10.0.2.7" }, group: "rack02" }
 */
export function inheritedValue<G>(
  node: string,
  own: StoredValue,
  groups: readonly G[],
  storedIn: (group: G) => StoredValue,
): InheritedValue<G> | typeof UNKNOWN_STORED | undefined {
  if (own === UNKNOWN_STORED) return UNKNOWN_STORED;
  if (own !== undefined && own !== "") return { stored: own, value: nodeValue(own, node), group: undefined };
  for (const group of groups) {
    const stored = storedIn(group);
    if (stored === UNKNOWN_STORED) return UNKNOWN_STORED;
    if (stored !== undefined && stored !== "") return { stored, value: nodeValue(stored, node), group };
  }
  return undefined;
}
