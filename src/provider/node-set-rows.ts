/**
 * A NodeSet's per-node values, pure: `rows` (node → attributes) or `csv` (the inventory text a
 * site keeps, header `node,<attribute>,...`) as one map of node → attributes, checked against
 * the optional `nodes` noderange and xCAT's node schema before anything reaches the server.
 * Every problem names where it is: `csv line 37, column 'mac'`, or `rows.r01n03.mac`.
 */
import { expandNoderange } from "../contract/noderange";
import { objectAttributes } from "../contract/schema";
import { attributeValueProblems } from "./attribute-values";
import { isSecretAttribute } from "./attributes";
import { parseCsv } from "./csv-records";
import { closestName } from "./edit-distance";
import {
  describe,
  type InputFailure,
  isPlainObject,
  isUnknown,
  kindOf,
  nodeNameProblems,
  UNKNOWN,
} from "./validation";

/** Node → the attributes set on that node alone (a blank cell sets nothing). */
export type NodeRows = Record<string, Record<string, string>>;

/** The rows, or the placeholder of a preview whose rows are not known yet, with every problem. */
export interface RowsOutcome {
  readonly rows: NodeRows | typeof UNKNOWN;
  readonly failures: readonly InputFailure[];
}

/** Why a name cannot be a column or row attribute; undefined when it can. */
function reservedReason(name: string, attributes: Readonly<Record<string, unknown>>): string | undefined {
  if (name === "groups") return "is set for the whole set by the 'groups' input";
  if (isSecretAttribute(name))
    return (
      "holds a password, which a NodeSet does not take (rows and csv are stored in plain text); " +
      "set it on a Group the nodes belong to"
    );
  if (name in attributes)
    return "is also given in attributes, for every node; give a value either to all nodes or per node";
  return undefined;
}

/** Why `name` is no column a row can set (unknown attribute, with the closest one); undefined when it is. */
function columnProblem(name: string, attributes: Readonly<Record<string, unknown>>): string | undefined {
  const reserved = reservedReason(name, attributes);
  if (reserved !== undefined) return `'${name}' ${reserved}`;
  const known = objectAttributes("node");
  if (known.has(name)) return undefined;
  const hint = closestName(name.toLowerCase(), known.keys());
  return `'${name}' is not a node attribute in xCAT's schema${hint ? ` (did you mean '${hint}'?)` : ""}`;
}

/**
 * The node names of a `nodes` noderange, expanded as xCAT expands names and ranges
 * (`r01n[01-20]`, `n1-n5`, `a,b`); a group name stands for itself, since no server is asked.
 */
export function expandNodesInput(nodes: string): string[] {
  return expandNoderange(nodes, { isNode: () => false, groupMembers: () => undefined });
}

/** Problems with the `nodes` input: a noderange string of node names. */
export function nodesProblems(nodes: unknown): string[] {
  if (nodes === undefined || isUnknown(nodes)) return [];
  if (typeof nodes !== "string" || nodes.trim() === "")
    return [`nodes must be a noderange such as 'r01n[01-20]', got ${describe(nodes)}`];
  if (/[/?#%\s]/.test(nodes)) return [`nodes '${nodes}' must not contain '/', '?', '#', '%' or whitespace`];
  return expandNodesInput(nodes).flatMap((node) => nodeNameProblems(node, `nodes: '${nodes}' names`));
}

/** Checks one node's attributes, naming each problem with `where(attribute)`. */
function cellProblems(
  values: Readonly<Record<string, unknown>>,
  where: (attribute: string) => string,
): string[] {
  const problems: string[] = [];
  for (const [attribute, value] of Object.entries(values)) {
    if (isUnknown(value)) continue;
    if (typeof value !== "string") {
      problems.push(`${where(attribute)}: the value must be a string, got ${kindOf(value)}`);
      continue;
    }
    // attributeValueProblems says "<what>: mac 'zz' is not a MAC address like ...".
    problems.push(...attributeValueProblems({ [attribute]: value }, where(attribute), "node", isUnknown));
  }
  return problems;
}

/** Nodes of `nodes` without a row, and rows outside it, as problems on `property`. */
function coverageProblems(nodes: unknown, rowsNodes: ReadonlyMap<string, string>): string[] {
  if (typeof nodes !== "string" || nodesProblems(nodes).length > 0) return [];
  const wanted = new Set(expandNodesInput(nodes));
  const problems: string[] = [];
  for (const [node, where] of rowsNodes) {
    if (!wanted.has(node)) problems.push(`${where}: node '${node}' is not in nodes '${nodes}'`);
  }
  const missing = [...wanted].filter((node) => !rowsNodes.has(node));
  if (missing.length > 0)
    problems.push(
      `nodes '${nodes}' names ${missing.length} node${missing.length === 1 ? "" : "s"} without a row: ` +
        `${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ", ..." : ""}`,
    );
  return problems;
}

/** Reads `csv` text into rows; `attributes` are the set's common values (a column may not repeat one). */
export function csvRows(
  csv: string,
  attributes: Readonly<Record<string, unknown>>,
  nodes?: unknown,
): { rows: NodeRows; problems: string[] } {
  const rows: NodeRows = {};
  const parsed = parseCsv(csv);
  if ("problem" in parsed)
    return { rows, problems: [`csv line ${parsed.problem.line}: ${parsed.problem.reason}`] };
  const [header, ...data] = parsed.records;
  if (header === undefined)
    return {
      rows,
      problems: ["csv is empty: it needs a header line node,<attribute>,... and a row per node"],
    };
  const problems: string[] = [];
  const [first, ...columns] = header.fields;
  if (first !== "node")
    problems.push(
      `csv line ${header.line}: the first column must be 'node' (header node,<attribute>,...), got '${first ?? ""}'`,
    );
  const seenColumns = new Set<string>();
  columns.forEach((column, index) => {
    const where = `csv line ${header.line}, column ${index + 2}`;
    if (column === "") problems.push(`${where}: the column has no name`);
    else if (seenColumns.has(column)) problems.push(`${where}: '${column}' is given twice`);
    else {
      const problem = columnProblem(column, attributes);
      if (problem !== undefined) problems.push(`${where}: ${problem}`);
    }
    seenColumns.add(column);
  });
  if (problems.length > 0) return { rows, problems };

  const lineOf = new Map<string, string>();
  for (const record of data) {
    const at = `csv line ${record.line}`;
    if (record.fields.length !== header.fields.length) {
      problems.push(
        `${at}: ${record.fields.length} field${record.fields.length === 1 ? "" : "s"}, but the header has ${header.fields.length} columns`,
      );
      continue;
    }
    const [node = "", ...cells] = record.fields;
    const nameProblems = nodeNameProblems(node, `${at}, column 'node'`);
    if (nameProblems.length > 0) {
      problems.push(...nameProblems);
      continue;
    }
    const earlier = lineOf.get(node);
    if (earlier !== undefined) {
      problems.push(`${at}: node '${node}' is given twice (first on ${earlier.replace("csv ", "")})`);
      continue;
    }
    lineOf.set(node, at);
    const values: Record<string, string> = {};
    columns.forEach((column, index) => {
      const cell = cells[index] ?? "";
      if (cell !== "") values[column] = cell;
    });
    problems.push(...cellProblems(values, (attribute) => `${at}, column '${attribute}'`));
    rows[node] = values;
  }
  if (data.length === 0) problems.push("csv has a header but no rows");
  problems.push(...coverageProblems(nodes, lineOf));
  return { rows, problems };
}

/** Checks a `rows` map (node → attributes). */
export function mapRows(
  value: unknown,
  attributes: Readonly<Record<string, unknown>>,
  nodes?: unknown,
): { rows: NodeRows | typeof UNKNOWN; problems: string[] } {
  if (isUnknown(value)) return { rows: UNKNOWN, problems: [] };
  if (!isPlainObject(value))
    return { rows: {}, problems: [`rows must be a map of node name to attributes, got ${describe(value)}`] };
  const problems: string[] = [];
  const rows: NodeRows = {};
  const seen = new Map<string, string>();
  for (const [node, values] of Object.entries(value)) {
    const where = `rows.${node}`;
    const nameProblems = nodeNameProblems(node, `rows: node name`);
    if (nameProblems.length > 0) {
      problems.push(...nameProblems);
      continue;
    }
    seen.set(node, where);
    if (isUnknown(values)) {
      rows[node] = {};
      continue;
    }
    if (!isPlainObject(values)) {
      problems.push(`${where} must be a map of attribute name to value, got ${describe(values)}`);
      continue;
    }
    for (const attribute of Object.keys(values)) {
      const problem = columnProblem(attribute, attributes);
      if (problem !== undefined) problems.push(`${where}: ${problem}`);
    }
    problems.push(...cellProblems(values, (attribute) => `${where}.${attribute}`));
    // An empty value sets nothing, as a blank cell in csv does.
    rows[node] = Object.fromEntries(
      Object.entries(values).filter(([, cell]) => cell !== "") as [string, string][],
    );
  }
  if (seen.size === 0 && problems.length === 0) problems.push("rows must name at least one node");
  problems.push(...coverageProblems(nodes, seen));
  return { rows, problems };
}

/**
 * A NodeSet's rows from its inputs: `rows`, or `csv`, or with neither the nodes of `nodes` with
 * no values of their own. Failures are on the input that holds the problem.
 */
export function nodeSetRows(news: Readonly<Record<string, unknown>>): RowsOutcome {
  const attributes = isPlainObject(news.attributes) ? news.attributes : {};
  const { rows, csv, nodes } = news;
  const nodeFailures = nodesProblems(nodes).map((reason) => ({ property: "nodes", reason }));
  if (rows !== undefined && csv !== undefined)
    return {
      rows: {},
      failures: [{ property: "csv", reason: "give the per-node values as rows or as csv, not both" }],
    };
  if (csv !== undefined) {
    if (isUnknown(csv)) return { rows: UNKNOWN, failures: nodeFailures };
    if (typeof csv !== "string")
      return { rows: {}, failures: [{ property: "csv", reason: `csv must be text, got ${describe(csv)}` }] };
    const outcome = csvRows(csv, attributes, nodes);
    return {
      rows: outcome.rows,
      failures: [...nodeFailures, ...outcome.problems.map((reason) => ({ property: "csv", reason }))],
    };
  }
  if (rows !== undefined) {
    const outcome = mapRows(rows, attributes, nodes);
    return {
      rows: outcome.rows,
      failures: [...nodeFailures, ...outcome.problems.map((reason) => ({ property: "rows", reason }))],
    };
  }
  if (nodes === undefined)
    return {
      rows: {},
      failures: [{ property: "nodes", reason: "a NodeSet needs its nodes: rows, csv or nodes" }],
    };
  if (isUnknown(nodes) || nodeFailures.length > 0) return { rows: UNKNOWN, failures: nodeFailures };
  return {
    rows: Object.fromEntries(expandNodesInput(nodes as string).map((node) => [node, {}])),
    failures: [],
  };
}
