/**
 * A NodeSet's step in a preview as what it does to each of its nodes, for review: a NodeSet is
 * many xCAT nodes, so its change is counted and named in nodes (`~ 20 nodes r02n[01-20] (NodeSet
 * rack2): provmethod: a → b`), never as "1 NodeSet". Per node, the values it will hold are the
 * set's `groups` and `attributes` and its own row (node-set-plan.ts, the provider's own rule),
 * compared before and after; nodes whose change reads the same share a line, so an image roll is
 * one line for the rack and a changed cell one line for its node (`r01n03`, `ip`).
 *
 * Pure; the steps are those of plan-summary.ts. The inputs are the provider's checked inputs, where
 * a csv is already `rows` (node-set.ts check); `rows` is Pulumi's unknown during a preview whose
 * csv comes from another resource.
 */
import { compareStrings } from "../../contract/noderange";
import { nodeValues } from "../../provider/node-set-plan";
import { isUnknown } from "../../provider/validation";
import type { PreviewState, PreviewStep } from "./plan-summary";

/** The kind of the NodeSet resource, as stack-resources.ts names it. */
export const NODE_SET = "xcat:NodeSet";

/** What one node of a set undergoes: created, deleted or updated, and how it reads. */
export interface NodeSetNodeChange {
  readonly op: "create" | "delete" | "update";
  readonly node: string;
  /** `in group rack1` for a create or delete; `provmethod: a → b` for an update. */
  readonly what: string;
  /** The value changed by hand on the management node that this change puts back. */
  readonly handEdited: boolean;
}

interface SetValues {
  readonly groups: readonly string[];
  readonly attributes: Readonly<Record<string, string>>;
  readonly rows: Readonly<Record<string, Record<string, string>>>;
}

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A set's values from a state's inputs; undefined when its rows are not known (a preview). */
export function setValues(state: PreviewState | undefined): SetValues | undefined {
  const inputs = state?.inputs;
  if (!inputs || !isMap(inputs.rows) || isUnknown(inputs.rows)) return undefined;
  const groups = Array.isArray(inputs.groups)
    ? inputs.groups.filter((group): group is string => typeof group === "string")
    : [];
  const attributes: Record<string, string> = {};
  if (isMap(inputs.attributes)) {
    for (const [name, value] of Object.entries(inputs.attributes))
      if (typeof value === "string") attributes[name] = value;
  }
  const rows: Record<string, Record<string, string>> = {};
  for (const [node, row] of Object.entries(inputs.rows)) {
    const values: Record<string, string> = {};
    if (isMap(row)) for (const [name, value] of Object.entries(row)) values[name] = showCell(value);
    rows[node] = values;
  }
  return { groups, attributes, rows };
}

/** A cell as review prints it: unknown during preview as `(known after apply)`. */
function showCell(value: unknown): string {
  if (isUnknown(value)) return "(known after apply)";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The node names of a set in a state (its rows), in name order; empty when not known. */
export function setNodes(state: PreviewState | undefined): string[] {
  return Object.keys(setValues(state)?.rows ?? {}).sort(compareStrings);
}

const membership = (set: SetValues) => (set.groups[0] !== undefined ? `in group ${set.groups[0]}` : "");

const shown = (value: string | undefined) => (value === undefined || value === "" ? "(none)" : value);

/**
 * What the step does to each node of the set. `recorded` is what the state held before a
 * `preview --refresh` read the server (hand-edits.ts): a node whose value differs there from what
 * the server holds now was edited by hand, one missing now was deleted by hand.
 */
export function nodeSetNodeChanges(
  step: PreviewStep,
  op: "create" | "delete" | "update" | "replace" | "adopt",
  recorded?: PreviewState,
): NodeSetNodeChange[] {
  const before = op === "create" || op === "adopt" ? undefined : setValues(step.oldState);
  const after = op === "delete" ? undefined : setValues(step.newState);
  const wasRecorded = setValues(recorded);
  const changes: NodeSetNodeChange[] = [];
  const oldNodes = Object.keys(before?.rows ?? {});
  const newNodes = Object.keys(after?.rows ?? {});
  if (before && (op === "delete" || op === "replace"))
    for (const node of oldNodes)
      changes.push({ op: "delete", node, what: membership(before), handEdited: false });
  // The state had the node and refresh found it gone: the change creates it again.
  const created = (set: SetValues, node: string): NodeSetNodeChange => {
    const deletedByHand = wasRecorded !== undefined && node in wasRecorded.rows;
    const what = [membership(set), deletedByHand ? "(deleted by hand, re-created)" : ""]
      .filter((part) => part)
      .join(" ");
    return { op: "create", node, what, handEdited: deletedByHand };
  };
  if (after && op !== "update") {
    for (const node of newNodes) changes.push(created(after, node));
    return changes;
  }
  if (!before || !after) return changes;
  for (const node of oldNodes)
    if (!(node in after.rows))
      changes.push({ op: "delete", node, what: membership(before), handEdited: false });
  for (const node of newNodes) if (!(node in before.rows)) changes.push(created(after, node));
  for (const node of newNodes) {
    if (!(node in before.rows)) continue;
    const old = nodeValues(before, node);
    const next = nodeValues(after, node);
    const was = wasRecorded?.rows[node] === undefined ? undefined : nodeValues(wasRecorded, node);
    for (const attribute of [...new Set([...Object.keys(old), ...Object.keys(next)])].sort(compareStrings)) {
      if ((old[attribute] ?? "") === (next[attribute] ?? "")) continue;
      const byHand = was !== undefined && (was[attribute] ?? "") !== (old[attribute] ?? "");
      const note = byHand
        ? (was?.[attribute] ?? "") === (next[attribute] ?? "")
          ? " (changed by hand)"
          : ` (changed by hand from ${shown(was?.[attribute])})`
        : "";
      changes.push({
        op: "update",
        node,
        what: `${attribute}: ${shown(old[attribute])}${note} → ${shown(next[attribute])}`,
        handEdited: byHand,
      });
    }
  }
  return changes;
}

/** A new node's ip, mac and bmc as the set declares them (a name missing: the set does not set it). */
export function declaredNodeValues(step: PreviewStep, node: string): Record<string, string> {
  const set = setValues(step.newState);
  return set === undefined ? {} : nodeValues(set, node);
}

/** The groups a new node of the set gets. */
export function setGroups(step: PreviewStep): readonly string[] {
  return setValues(step.newState)?.groups ?? [];
}

/** A node's values as a Node step's inputs hold them: `groups` apart, the rest in `attributes`. */
function nodeInputs(set: SetValues, node: string): Record<string, unknown> {
  const { groups: _groups, ...attributes } = nodeValues(set, node);
  return { name: node, groups: [...set.groups], attributes };
}

/**
 * The set's step as one Node step per node it creates, deletes or changes, for what looks at
 * nodes one by one (name-service-lines.ts: a set's nodes get their hosts, DNS and DHCP entries as
 * Nodes do, node-set.ts nameServicesAfter).
 */
export function nodeSetNodeSteps(step: PreviewStep): Array<{ name: string; step: PreviewStep }> {
  const before = step.op === "create" ? undefined : setValues(step.oldState);
  const after = step.op === "delete" ? undefined : setValues(step.newState);
  const nodes = new Set([...Object.keys(before?.rows ?? {}), ...Object.keys(after?.rows ?? {})]);
  const steps: Array<{ name: string; step: PreviewStep }> = [];
  for (const node of [...nodes].sort(compareStrings)) {
    const old = before?.rows[node] !== undefined && before ? nodeInputs(before, node) : undefined;
    const next = after?.rows[node] !== undefined && after ? nodeInputs(after, node) : undefined;
    const op = old === undefined ? "create" : next === undefined ? "delete" : "update";
    if (op === "update" && JSON.stringify(old) === JSON.stringify(next)) continue;
    steps.push({
      name: node,
      step: {
        op,
        ...(old !== undefined ? { oldState: { inputs: old } } : {}),
        ...(next !== undefined ? { newState: { inputs: next } } : {}),
      },
    });
  }
  return steps;
}
