/**
 * What xCAT reports for each node of a NodeSet, in the compact form the state keeps: the values
 * every node of the set reports alike once (`sharedAttributes`: the set's groups and common
 * attributes, what the groups give, xCAT's defaults), and per node (`nodeAttributes`) only what
 * neither that nor the node's own row in the outputs' `rows` already says: a value changed by
 * hand, one xCAT reports otherwise than the row holds it, an attribute no row or other node has.
 * A node's whole report is its row's values, then `sharedAttributes` over them, then its own
 * entry over those, where {@link NOT_REPORTED} takes a row's value away: exactly what xCAT
 * reported, never another node's value.
 *
 * Why: written whole per node, the reports were 46 % of a set's state, and after the shared
 * values the rest was mostly the rows' values again (docs/large-stacks.md, "Where a NodeSet
 * preview's CPU goes" and "The compact NodeSet state"); every engine step, provider call and
 * program registration moves and decodes those bytes. Pure and import-free: the program's class
 * expands them.
 */

/** Node → attribute → value, as xCAT reports them. */
export type NodeReports = Record<string, Record<string, string>>;

/**
 * A node's own entry for an attribute its row holds but the node does not report. Unambiguous:
 * xCAT has no empty-valued attribute (`chdef node attr=` clears it, and lsdef then lists no such
 * attribute), so no report holds "" as a value.
 */
export const NOT_REPORTED = "";

/** The state's form of the reports. */
export interface CompactReports {
  /** Attributes every reported node holds with the same value. */
  readonly sharedAttributes: Record<string, string>;
  /** Per reported node, what it holds otherwise than its row and `sharedAttributes` (often nothing). */
  readonly nodeAttributes: NodeReports;
}

type Rows = Readonly<Record<string, Readonly<Record<string, string>> | undefined>>;

/**
 * The reports of `nodes` (in that order; a node not reported is left out) in the state's form,
 * against `rows`: the `rows` the same outputs hold (what the set declared after an up, what the
 * nodes held after a refresh).
 */
export function compactReports(
  nodes: readonly string[],
  reported: ReadonlyMap<string, Readonly<Record<string, string>>>,
  rows: Rows = {},
): CompactReports {
  const present = nodes.filter((node) => reported.has(node));
  let shared: Record<string, string> | undefined;
  for (const node of present) {
    const values = reported.get(node) as Readonly<Record<string, string>>;
    if (shared === undefined) {
      shared = { ...values };
      continue;
    }
    for (const [attribute, value] of Object.entries(shared)) {
      if (values[attribute] !== value) delete shared[attribute];
    }
  }
  const sharedAttributes = sortedKeys(shared ?? {});
  const nodeAttributes: NodeReports = {};
  for (const node of present) {
    const values = reported.get(node) as Record<string, string>;
    const row = rows[node] ?? {};
    const own: Record<string, string> = {};
    for (const [attribute, value] of Object.entries(values)) {
      if (!(attribute in sharedAttributes) && row[attribute] !== value) own[attribute] = value;
    }
    for (const [attribute, value] of Object.entries(row)) {
      if (value !== NOT_REPORTED && !(attribute in values)) own[attribute] = NOT_REPORTED;
    }
    nodeAttributes[node] = sortedKeys(own);
  }
  return { sharedAttributes, nodeAttributes };
}

/**
 * Each node's whole report from the state's outputs. States written before this form read the
 * same: one written before `sharedAttributes` existed holds each node's report whole in
 * `nodeAttributes`, and one written with `sharedAttributes` but before the rows were left out
 * holds per node every value not shared; over either, the row's values show only for an
 * attribute the entry and the shared values lack, which those writes recorded only for a node
 * that reported the row's value (an up records the row it wrote and read back, a refresh the
 * row as read). Anything but a map of nodes (an output not set, a preview's unknown) is given
 * back as it is.
 */
export function expandReports(
  nodeAttributes: unknown,
  sharedAttributes: unknown,
  rows?: unknown,
): NodeReports {
  if (!isMap(nodeAttributes)) return nodeAttributes as NodeReports;
  const shared = isMap(sharedAttributes) ? (sharedAttributes as Record<string, string>) : {};
  const rowsOf = isMap(rows) ? rows : {};
  const whole: NodeReports = {};
  for (const [node, own] of Object.entries(nodeAttributes)) {
    const values: Record<string, string> = {};
    const row = rowsOf[node];
    if (isMap(row)) {
      for (const [attribute, value] of Object.entries(row)) {
        if (typeof value === "string" && value !== NOT_REPORTED) values[attribute] = value;
      }
    }
    Object.assign(values, shared);
    if (isMap(own)) {
      for (const [attribute, value] of Object.entries(own as Record<string, string>)) {
        if (value === NOT_REPORTED) delete values[attribute];
        else values[attribute] = value;
      }
    }
    whole[node] = sortedKeys(values);
  }
  return whole;
}

/**
 * Each node's whole report from a set's outputs as the state holds them (any form); a map
 * with no nodes when the outputs hold none.
 */
export function reportsOfOutputs(outputs: unknown): NodeReports {
  if (!isMap(outputs)) return {};
  const whole = expandReports(outputs.nodeAttributes, outputs.sharedAttributes, outputs.rows);
  return isMap(whole) ? whole : {};
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Attributes in name order, as xCAT's lsdef lists them and the state kept them. */
function sortedKeys(values: Readonly<Record<string, string>>): Record<string, string> {
  const sorted: Record<string, string> = {};
  for (const name of Object.keys(values).sort()) sorted[name] = values[name] as string;
  return sorted;
}
