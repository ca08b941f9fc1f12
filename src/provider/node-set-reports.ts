/**
 * What xCAT reports for each node of a NodeSet, in the compact form the state keeps: the values
 * every node of the set reports alike once (`sharedAttributes`: the set's groups and common
 * attributes, what the groups give, xCAT's defaults), and per node only what differs from them
 * (`nodeAttributes`: its ip, mac, bmc, a value changed by hand). A node's whole report is the
 * shared values with its own over them, exactly what xCAT reported, never another node's value.
 *
 * Why: written whole per node, the reports were 46 % of a set's state (docs/large-stacks.md,
 * "Where a NodeSet preview's CPU goes"), and every engine step, provider call and program
 * registration moves and decodes them. Pure and import-free: the program's class expands them.
 */

/** Node → attribute → value, as xCAT reports them. */
export type NodeReports = Record<string, Record<string, string>>;

/** The state's form of the reports. */
export interface CompactReports {
  /** Attributes every reported node holds with the same value. */
  readonly sharedAttributes: Record<string, string>;
  /** Per reported node, the attributes it holds otherwise than `sharedAttributes` (often few). */
  readonly nodeAttributes: NodeReports;
}

/** The reports of `nodes` (in that order; a node not reported is left out) in the state's form. */
export function compactReports(
  nodes: readonly string[],
  reported: ReadonlyMap<string, Readonly<Record<string, string>>>,
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
    const own: Record<string, string> = {};
    for (const [attribute, value] of Object.entries(reported.get(node) as Record<string, string>)) {
      if (!(attribute in sharedAttributes)) own[attribute] = value;
    }
    nodeAttributes[node] = sortedKeys(own);
  }
  return { sharedAttributes, nodeAttributes };
}

/**
 * Each node's whole report from the state's outputs. A state written before `sharedAttributes`
 * existed holds each node's report whole in `nodeAttributes`: with no shared values the same
 * expansion gives it back unchanged, so old states read right. Anything but a map of nodes (an
 * output not set, a preview's unknown) is given back as it is.
 */
export function expandReports(nodeAttributes: unknown, sharedAttributes: unknown): NodeReports {
  if (!isMap(nodeAttributes)) return nodeAttributes as NodeReports;
  const shared = isMap(sharedAttributes) ? (sharedAttributes as Record<string, string>) : {};
  const whole: NodeReports = {};
  for (const [node, own] of Object.entries(nodeAttributes)) {
    whole[node] = sortedKeys({ ...shared, ...(isMap(own) ? (own as Record<string, string>) : {}) });
  }
  return whole;
}

/**
 * Each node's whole report from a set's outputs as the state holds them (either form); a map
 * with no nodes when the outputs hold none.
 */
export function reportsOfOutputs(outputs: unknown): NodeReports {
  if (!isMap(outputs)) return {};
  const whole = expandReports(outputs.nodeAttributes, outputs.sharedAttributes);
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
