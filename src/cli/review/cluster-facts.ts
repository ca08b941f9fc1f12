/**
 * What review knows of the management node: the raw rows of xCAT's node tables (each node's own
 * row and each group's row, nothing inherited), as `GET /tables/<tables>/rows` returns them. From
 * these it works out a node's value the way xCAT does (xcat-behavior.md §5.2, Table.pm
 * `getNodeAttribs_nosub_returnany`): the node's own value wins, else the first of its groups, in
 * the order of its `groups`, that has one (a `|pattern|replacement|` value expanded for the node);
 * and it can work it out again with the plan's changes applied, to tell which nodes a group change
 * reaches. Pure, so every case is unit-tested.
 */
import type { TableRows } from "../../client";
import { compareStrings, type NoderangeContext } from "../../contract/noderange";
import { expandTemplate } from "../../contract/regex-values";
import { type AttributeMapping, objectAttributes } from "../../contract/schema";

/** A node's value and where it comes from: `from` names the group it is inherited from. */
export interface NodeValue {
  readonly value: string;
  readonly from?: string;
}

/** The plan's changes that inheritance sees. */
export interface PlannedEdits {
  /** Attribute values groups will hold ("" is cleared), by group. */
  readonly groups?: ReadonlyMap<string, Readonly<Record<string, string>>>;
  /** Node groups lists the plan sets (created nodes, changed `groups`). */
  readonly nodeGroups?: ReadonlyMap<string, readonly string[]>;
  /** Attribute values nodes will hold themselves ("" is cleared), by node. */
  readonly nodes?: ReadonlyMap<string, Readonly<Record<string, string>>>;
}

/** The tables to read for these node attributes: nodelist (membership) and where each is stored, with its only_if condition. */
export function tablesFor(attributes: Iterable<string>): string[] {
  const mappings = objectAttributes("node");
  const tables = new Set<string>(["nodelist"]);
  const add = (attribute: string, depth: number) => {
    for (const mapping of mappings.get(attribute) ?? []) {
      tables.add(mapping.table);
      if (mapping.onlyIf && depth < 2) add(mapping.onlyIf.attribute, depth + 1);
    }
  };
  for (const attribute of attributes) add(attribute, 0);
  return [...tables].sort(compareStrings);
}

export class ClusterFacts {
  readonly #rows = new Map<string, Map<string, Readonly<Record<string, string>>>>();
  readonly #groupsOf = new Map<string, readonly string[]>();
  readonly #members = new Map<string, string[]>();

  /** @param rows raw table rows, keyed by each table's `node` column */
  constructor(rows: TableRows) {
    for (const [table, list] of Object.entries(rows)) {
      const byKey = new Map<string, Readonly<Record<string, string>>>();
      for (const row of list) if (row.node !== undefined && !byKey.has(row.node)) byKey.set(row.node, row);
      this.#rows.set(table, byKey);
    }
    // nodelist rows are the nodes (its columns are never inherited, so no group has a row there).
    for (const [node, row] of this.#rows.get("nodelist") ?? []) {
      const groups = splitGroups(row.groups ?? "");
      this.#groupsOf.set(node, groups);
      for (const group of groups) {
        const members = this.#members.get(group) ?? [];
        members.push(node);
        this.#members.set(group, members);
      }
    }
  }

  isNode(name: string): boolean {
    return this.#groupsOf.has(name);
  }

  /** The nodes that list the group in their `groups`, sorted. */
  membersOf(group: string): string[] {
    return [...(this.#members.get(group) ?? [])].sort(compareStrings);
  }

  groupsOf(node: string, edits?: PlannedEdits): readonly string[] {
    return edits?.nodeGroups?.get(node) ?? this.#groupsOf.get(node) ?? [];
  }

  /**
   * Expansion of noderanges against the cluster as the plan leaves it: `created` nodes (with their
   * groups) count as defined, `deleted` ones do not.
   */
  noderangeContext(
    created: ReadonlyMap<string, readonly string[]>,
    deleted: ReadonlySet<string>,
  ): NoderangeContext {
    return {
      isNode: (name) => !deleted.has(name) && (created.has(name) || this.isNode(name)),
      groupMembers: (group) => {
        const members = new Set(this.#members.get(group) ?? []);
        for (const [node, groups] of created) if (groups.includes(group)) members.add(node);
        for (const node of deleted) members.delete(node);
        return members.size > 0 || this.#members.has(group) ? [...members] : undefined;
      },
    };
  }

  /** The node's value of `attribute` as lsdef shows it, with `edits` applied when given. */
  value(node: string, attribute: string, edits?: PlannedEdits): NodeValue {
    return this.#value(node, attribute, edits, 0);
  }

  #value(node: string, attribute: string, edits: PlannedEdits | undefined, depth: number): NodeValue {
    const mapping = this.#mappingFor(node, attribute, edits, depth);
    if (mapping === undefined) return { value: "" };
    const own = edits?.nodes?.get(node)?.[attribute] ?? this.#cell(mapping, node);
    if (own !== "") return { value: own };
    for (const group of this.groupsOf(node, edits)) {
      const value = edits?.groups?.get(group)?.[attribute] ?? this.#cell(mapping, group);
      if (value !== "")
        return { value: value.startsWith("|") ? expandTemplate(value, node) : value, from: group };
    }
    return { value: "" };
  }

  #cell(mapping: AttributeMapping, key: string): string {
    return this.#rows.get(mapping.table)?.get(key)?.[mapping.column] ?? "";
  }

  /** Where the node's attribute is stored: the mapping whose only_if holds, else the plain one (lsdef's choice). */
  #mappingFor(
    node: string,
    attribute: string,
    edits: PlannedEdits | undefined,
    depth: number,
  ): AttributeMapping | undefined {
    let plain: AttributeMapping | undefined;
    for (const mapping of objectAttributes("node").get(attribute) ?? []) {
      if (!mapping.onlyIf) {
        plain ??= mapping;
        continue;
      }
      if (mapping.onlyIf.attribute === attribute || depth >= 2) continue;
      if (this.#value(node, mapping.onlyIf.attribute, edits, depth + 1).value === mapping.onlyIf.value) {
        return mapping;
      }
    }
    return plain;
  }
}

function splitGroups(text: string): string[] {
  return text
    .split(",")
    .map((group) => group.trim())
    .filter((group) => group !== "");
}

/** A node value as a review prints it: `rocky9.3 (from group compute)`, `(none)` when unset. */
export function showNodeValue(found: NodeValue): string {
  if (found.value === "") return "(none)";
  return found.from === undefined ? found.value : `${found.value} (from group ${found.from})`;
}
