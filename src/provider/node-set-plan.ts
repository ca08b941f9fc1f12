/**
 * What a NodeSet holds per node and what a change of it sends, pure. A node's values are the
 * set's `groups` and `attributes` and its own row; a change is planned per node and then merged:
 * nodes whose change is the same (a new image for the whole rack) share one PUT of their
 * noderange, rows added are created alone, rows removed go in one DELETE.
 */
import { attributeChanges } from "./attributes";
import type { NodeRows } from "./node-set-rows";

/** What the plan needs of a NodeSet's inputs or recorded outputs. */
export interface NodeSetValues {
  readonly groups: readonly string[];
  readonly attributes: Readonly<Record<string, string>>;
  readonly rows: Readonly<NodeRows>;
}

/** One request that sets the same values on several nodes. */
export interface NodeSetWrite {
  readonly nodes: readonly string[];
  readonly changes: Readonly<Record<string, string>>;
}

/** What an update sends: nodes to create, nodes to delete, and merged writes to the others. */
export interface NodeSetPlan {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly writes: readonly NodeSetWrite[];
}

/** The attributes the set manages on `node`, in xCAT's form (groups as a comma list). */
export function nodeValues(set: NodeSetValues, node: string): Record<string, string> {
  return { groups: set.groups.join(","), ...set.attributes, ...(set.rows[node] ?? {}) };
}

/**
 * Nodes that get the same change, together: one entry per distinct change, nodes in name order.
 */
export function mergedWrites(changes: ReadonlyMap<string, Readonly<Record<string, string>>>): NodeSetWrite[] {
  const byBody = new Map<string, { nodes: string[]; changes: Readonly<Record<string, string>> }>();
  for (const [node, change] of [...changes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (Object.keys(change).length === 0) continue;
    const key = JSON.stringify(Object.entries(change).sort(([a], [b]) => (a < b ? -1 : 1)));
    const entry = byBody.get(key) ?? { nodes: [], changes: change };
    entry.nodes.push(node);
    byBody.set(key, entry);
  }
  return [...byBody.values()];
}

/**
 * The requests that make the set `previous` (as recorded, or as refresh read it) into `next`:
 * rows gone are deleted, new rows created, and on the nodes in both each changed or dropped
 * attribute written (a dropped one cleared with ""), merged by equal change.
 */
export function planNodeSetUpdate(previous: NodeSetValues, next: NodeSetValues): NodeSetPlan {
  const before = new Set(Object.keys(previous.rows));
  const after = Object.keys(next.rows);
  const changes = new Map<string, Record<string, string>>();
  for (const node of after) {
    if (before.has(node))
      changes.set(node, attributeChanges(nodeValues(previous, node), nodeValues(next, node)));
  }
  return {
    added: after.filter((node) => !before.has(node)).sort(),
    removed: removedRows(previous, next),
    writes: mergedWrites(changes),
  };
}

/** The rows of `previous` that `next` no longer has, in name order. */
export function removedRows(previous: NodeSetValues, next: NodeSetValues): string[] {
  return Object.keys(previous.rows)
    .filter((node) => !Object.hasOwn(next.rows, node))
    .sort();
}

/**
 * Whether applying `next` over `previous` would send anything: what {@link planNodeSetUpdate}
 * plans is not empty. Asked for every set in every preview, so it stops at the first node that
 * would change and merges nothing.
 */
export function nodeSetChanges(previous: NodeSetValues, next: NodeSetValues): boolean {
  const before = Object.keys(previous.rows);
  const after = Object.keys(next.rows);
  if (before.length !== after.length) return true;
  for (const node of after) {
    if (!Object.hasOwn(previous.rows, node)) return true;
    const changes = attributeChanges(nodeValues(previous, node), nodeValues(next, node));
    for (const _ in changes) return true;
  }
  return false;
}

/**
 * The set as the server holds it, for refresh: per node, the row's attributes as read (one
 * cleared by hand is left out, so the next up sets it again), and any common value (`groups`,
 * `attributes`) a node holds otherwise, as that node's own value (`rows.r01n03.provmethod`), so
 * the diff names the node. A node the server does not have is left out of the rows: refresh
 * shows it gone and up creates it again.
 */
export function heldRows(
  recorded: NodeSetValues,
  reported: ReadonlyMap<string, Readonly<Record<string, string>>>,
): NodeRows {
  const rows: NodeRows = {};
  const groups = recorded.groups.join(",");
  for (const [node, row] of Object.entries(recorded.rows)) {
    const held = reported.get(node);
    if (held === undefined) continue;
    const values: Record<string, string> = {};
    for (const attribute of Object.keys(row)) {
      const value = held[attribute] ?? "";
      if (value !== "") values[attribute] = value;
    }
    if ((held.groups ?? "") !== groups) values.groups = held.groups ?? "";
    for (const [attribute, common] of Object.entries(recorded.attributes)) {
      const value = held[attribute] ?? "";
      if (value !== common) values[attribute] = value;
    }
    rows[node] = values;
  }
  return rows;
}
