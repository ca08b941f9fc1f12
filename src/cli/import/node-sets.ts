/**
 * `--grain set`: the imported nodes as NodeSets, one per rack, instead of one Node each (issue
 * #38 item 5). The rule, in one paragraph (docs/bring-a-cluster-under-code.md says the same):
 *
 * Nodes go into one set when they hold the same groups, in the same order (a NodeSet gives all
 * its nodes one `groups`), and stand in the same rack: xCAT's `rack` attribute where the node has
 * one, otherwise the rack their name says, which is the name without its last number (`r01n07`
 * is in `r01n`). A set needs two nodes or more; a node alone in its rack, and a node holding a
 * value the program takes from stack config (a password of its own: a NodeSet keeps its rows in
 * plain text and takes no secret), stays a `Node`. A value every node of the set holds, the same,
 * goes into the set's `attributes`; every other value into the node's row of the set's CSV file.
 * A set is named by its rack attribute, else by the first of its groups that holds no other
 * imported node (`rack01`), else by its name prefix (`r01n`).
 */
import type { NodeEntry } from "./runs";

/** One NodeSet the program declares. */
export interface ImportedNodeSet {
  /** Its name: the CSV file is `inventory/<name>.csv`. */
  readonly name: string;
  readonly groups: readonly string[];
  /** Values every node of the set holds, the same. */
  readonly attributes: Readonly<Record<string, string>>;
  /** The CSV's columns after `node`, in name order. */
  readonly columns: readonly string[];
  /** Each node's own values, in the order imported. */
  readonly rows: ReadonlyArray<readonly [node: string, values: Readonly<Record<string, string>>]>;
}

/** The resource name of an imported NodeSet (its Group may have the set's own name). */
export function nodeSetResourceName(set: Pick<ImportedNodeSet, "name">): string {
  return `${set.name}-nodes`;
}

/** Fewer nodes than this in a rack stay Nodes. */
export const MIN_SET = 2;

/** The rack a node stands in: its `rack` attribute, else its name without the last number. */
function rackOf(entry: NodeEntry): string {
  const rack = entry.attributes.rack;
  if (rack !== undefined && rack !== "") return `rack:${rack}`;
  const match = /^(.*?)\d+(\D*)$/.exec(entry.name);
  return match ? `name:${match[1] ?? ""}#${match[2] ?? ""}` : `node:${entry.name}`;
}

/** A name usable as a file name and a Pulumi YAML key: letters, digits, `_` and `-`. */
function fileSafe(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "");
}

/**
 * Splits nodes into NodeSets and the nodes that stay single.
 * @param alone nodes that must stay a Node whatever their rack (values taken from stack config)
 */
export function groupIntoSets(
  entries: readonly NodeEntry[],
  alone: (entry: NodeEntry) => boolean,
): { sets: ImportedNodeSet[]; singles: NodeEntry[] } {
  const buckets = new Map<string, NodeEntry[]>();
  const singles: NodeEntry[] = [];
  for (const entry of entries) {
    if (alone(entry)) {
      singles.push(entry);
      continue;
    }
    const key = JSON.stringify([entry.groups, rackOf(entry)]);
    buckets.set(key, [...(buckets.get(key) ?? []), entry]);
  }
  const members: NodeEntry[][] = [];
  for (const nodes of buckets.values()) {
    if (nodes.length >= MIN_SET) members.push(nodes);
    else singles.push(...nodes);
  }
  // How many imported nodes each group holds: a group holding just a set's nodes names it.
  const groupUse = new Map<string, number>();
  for (const entry of entries) {
    for (const group of new Set(entry.groups)) groupUse.set(group, (groupUse.get(group) ?? 0) + 1);
  }
  const taken = new Set<string>();
  const sets = members.map((nodes) => {
    const first = nodes[0] as NodeEntry;
    const base = fileSafe(setName(nodes, groupUse)) || "nodes";
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
    taken.add(name);
    return asSet(name, nodes, first.groups);
  });
  const order = new Map(entries.map((entry, index) => [entry.name, index]));
  singles.sort((a, b) => (order.get(a.name) ?? 0) - (order.get(b.name) ?? 0));
  sets.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { sets, singles };
}

function setName(nodes: readonly NodeEntry[], groupUse: ReadonlyMap<string, number>): string {
  const first = nodes[0] as NodeEntry;
  const rack = first.attributes.rack;
  if (rack !== undefined && rack !== "" && nodes.every((node) => node.attributes.rack === rack))
    return /^\d/.test(rack) ? `rack${rack}` : rack;
  const own = first.groups.find((group) => groupUse.get(group) === nodes.length);
  if (own !== undefined) return own;
  return /^(.*?)\d+\D*$/.exec(first.name)?.[1] ?? first.name;
}

function asSet(name: string, nodes: readonly NodeEntry[], groups: readonly string[]): ImportedNodeSet {
  const names = [...new Set(nodes.flatMap((node) => Object.keys(node.attributes)))].sort();
  const attributes: Record<string, string> = {};
  const columns: string[] = [];
  for (const attribute of names) {
    const value = nodes[0]?.attributes[attribute];
    if (value !== undefined && nodes.every((node) => node.attributes[attribute] === value))
      attributes[attribute] = value;
    else columns.push(attribute);
  }
  const rows = nodes.map(
    (node) =>
      [
        node.name,
        Object.fromEntries(
          columns.flatMap((column) => {
            const value = node.attributes[column];
            return value === undefined ? [] : [[column, value]];
          }),
        ),
      ] as const,
  );
  return { name, groups, attributes, columns, rows };
}
