/**
 * Confluent's configuration semantics over the SQLite rows (configmanager.py, 3.15.6): nodes
 * and groups, `groups` lists that always end in `everything`, inheritance in list order,
 * expressions evaluated per node, secrets kept but never shown, node indexes, and the views the
 * attribute plugin renders (plugins/configuration/attributes.py). No HTTP here.
 */
import {
  CONFLUENT_ATTRIBUTE_ALIASES,
  CONFLUENT_NODE_ATTRIBUTES,
  isSecretAttribute,
  schemaNameOf,
} from "../../contract/confluent/attributes";
import { confluentMessages } from "../../contract/confluent/messages";
import type { ConfluentDatabase, GroupRow, NodeRow, StoredAttributes, StoredEntry } from "./database";
import { badRequest } from "./errors";
import { type ExpressionScope, expandExpression } from "./expressions";
import { Noderange, type NoderangeConfig, naturalSort } from "./noderange";
import { PythonError, parseFormat } from "./python-format";

export const EVERYTHING = "everything";

/** One attribute of a node after inheritance and expansion, before rendering. */
export type ResolvedEntry =
  | {
      readonly kind: "value";
      readonly value?: unknown;
      readonly expression?: string;
      readonly broken?: string;
      readonly inheritedfrom?: string;
    }
  | { readonly kind: "secret"; readonly secret: string; readonly inheritedfrom?: string }
  | { readonly kind: "list"; readonly items: readonly unknown[] };

/** How an attribute appears on the wire (plugins/configuration/attributes.py + messages.py:1893, :2036). */
export type WireEntry = unknown[] | Record<string, unknown>;

function isList(entry: StoredEntry): entry is readonly unknown[] {
  return Array.isArray(entry);
}

function pyTypeName(value: unknown): string {
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (value === null) return "NoneType";
  return typeof value;
}

/** configmanager.py:2600-2640: how a value given for an attribute is stored. */
function toStored(attribute: string, value: unknown): StoredEntry | undefined {
  if (value === null || value === undefined) return undefined;
  let entry: unknown = value;
  if (typeof value === "string" || typeof value === "boolean") entry = { value };
  if (Array.isArray(entry)) return entry;
  if (typeof entry !== "object" || entry === null) {
    // `'value' in newdict` on an int or float: Python's TypeError, unhandled.
    throw new PythonError(`argument of type '${pyTypeName(entry)}' is not iterable`);
  }
  const dict = entry as Record<string, unknown>;
  if ("expression" in dict && typeof dict.expression === "string") {
    // configmanager.py:2493 ExpressionChecker().format: a syntax check of the field layout.
    parseFormat(dict.expression);
    return { expression: dict.expression };
  }
  if ("value" in dict && isSecretAttribute(attribute))
    return { secret: dict.value === null ? "" : String(dict.value) };
  if ("value" in dict) return { value: dict.value };
  return { value: undefined } as StoredEntry;
}

export class ConfluentConfig {
  readonly #db: ConfluentDatabase;

  constructor(db: ConfluentDatabase) {
    this.#db = db;
    if (!db.group(EVERYTHING)) db.putGroup({ name: EVERYTHING, attributes: {}, nodes: [], seq: 0 });
  }

  get db(): ConfluentDatabase {
    return this.#db;
  }

  isNode(name: string): boolean {
    return this.#db.node(name) !== undefined;
  }

  isGroup(name: string): boolean {
    return this.#db.group(name) !== undefined;
  }

  nodeNames(): string[] {
    return naturalSort(this.#db.nodeNames());
  }

  groupNames(): string[] {
    return naturalSort(this.#db.allGroups().map((g) => g.name));
  }

  group(name: string): GroupRow | undefined {
    return this.#db.group(name);
  }

  /** The noderange evaluator bound to this configuration. */
  noderange(): Noderange {
    const config: NoderangeConfig = {
      isNode: (n) => this.isNode(n),
      isGroup: (g) => this.isGroup(g),
      groupMembers: (g) => this.#db.group(g)?.nodes ?? [],
      allNodes: () => this.#db.nodeNames(),
      attributeValue: (node, attribute) => {
        const entry = this.resolveNode(node)?.[attribute];
        if (entry?.kind !== "value") return "";
        return entry.value === undefined || entry.value === null ? "" : String(entry.value);
      },
    };
    return new Noderange(config);
  }

  // ---- reads -------------------------------------------------------------------------------

  /** configmanager.py:1874 get_node_attributes: own values, then groups in list order, expanded. */
  resolveNode(name: string): Record<string, ResolvedEntry> | undefined {
    const row = this.#db.node(name);
    if (!row) return undefined;
    const raw: Record<string, { entry: StoredEntry; from?: string }> = {};
    for (const [attribute, entry] of Object.entries(row.attributes)) raw[attribute] = { entry };
    raw["id.index"] = { entry: { value: row.index } };
    const groups = (row.attributes.groups as string[] | undefined) ?? [];
    for (const group of groups) {
      const g = this.#db.group(group);
      if (!g) continue;
      for (const [attribute, entry] of Object.entries(g.attributes)) {
        if (!(attribute in raw)) raw[attribute] = { entry, from: group };
      }
    }
    const resolved: Record<string, ResolvedEntry> = {};
    const evaluating = new Set<string>();
    const decode = (attribute: string): ResolvedEntry | undefined => {
      if (attribute in resolved) return resolved[attribute];
      const item = raw[attribute];
      if (!item) return undefined;
      const { entry, from } = item;
      const inherited = from ? { inheritedfrom: from } : {};
      let result: ResolvedEntry;
      if (isList(entry)) result = { kind: "list", items: entry };
      else if ("secret" in entry) result = { kind: "secret", secret: entry.secret, ...inherited };
      else if ("expression" in entry) {
        if (evaluating.has(attribute)) {
          result = {
            kind: "value",
            expression: entry.expression,
            broken: "maximum recursion depth exceeded",
            ...inherited,
          };
        } else {
          evaluating.add(attribute);
          try {
            result = {
              kind: "value",
              expression: entry.expression,
              value: expandExpression(entry.expression, scope),
              ...inherited,
            };
          } catch (error) {
            result = {
              kind: "value",
              expression: entry.expression,
              broken: (error as Error).message,
              ...inherited,
            };
          } finally {
            evaluating.delete(attribute);
          }
        }
      } else result = { kind: "value", value: entry.value, ...inherited };
      resolved[attribute] = result;
      return result;
    };
    const scope: ExpressionScope = {
      nodeName: name,
      has: (attribute) => attribute in raw,
      lookup: (attribute) => {
        const r = decode(attribute);
        if (r?.kind !== "value") return undefined;
        return r.broken !== undefined ? { broken: r.broken } : { value: r.value };
      },
    };
    for (const attribute of Object.keys(raw)) decode(attribute);
    return resolved;
  }

  /** The value a secret holds for a node (own or inherited), for simulated BMC logins. */
  secretOf(node: string, attribute: string): string | undefined {
    const entry = this.resolveNode(node)?.[attribute];
    return entry?.kind === "secret" ? entry.secret : undefined;
  }

  static wire(entry: ResolvedEntry): WireEntry {
    if (entry.kind === "list") return [...entry.items];
    if (entry.kind === "secret") {
      // messages.py:2051: isset only for a non-empty secret, and only then its group.
      return entry.secret !== ""
        ? { isset: true, ...(entry.inheritedfrom ? { inheritedfrom: entry.inheritedfrom } : {}) }
        : { isset: false };
    }
    const out: Record<string, unknown> = {};
    if (entry.expression !== undefined) out.expression = entry.expression;
    if (entry.broken !== undefined) out.broken = entry.broken;
    else if ("value" in entry) out.value = entry.value === undefined ? null : entry.value;
    if (entry.inheritedfrom) out.inheritedfrom = entry.inheritedfrom;
    return out;
  }

  /** attributes/current of a node: every attribute it has, sorted. */
  nodeCurrent(name: string): Array<[string, WireEntry]> {
    const resolved = this.resolveNode(name) ?? {};
    return Object.keys(resolved)
      .sort()
      .map((a) => [a, ConfluentConfig.wire(resolved[a] as ResolvedEntry)]);
  }

  /** attributes/all of a node: the schema plus what it has (attributes.py:117). */
  nodeAll(name: string): Array<[string, WireEntry]> {
    const resolved = this.resolveNode(name) ?? {};
    const names = new Set([...Object.keys(CONFLUENT_NODE_ATTRIBUTES), ...Object.keys(resolved)]);
    return [...names].sort().map((a) => {
      const entry = resolved[a];
      if (entry) return [a, ConfluentConfig.wire(entry)];
      if (a === "groups") return [a, []];
      if (isSecretAttribute(a)) return [a, { isset: false }];
      return [a, { value: null }];
    });
  }

  static #groupWire(entry: StoredEntry): WireEntry {
    if (isList(entry)) return [...entry];
    if ("secret" in entry) return entry.secret !== "" ? { isset: true } : { isset: false };
    if ("expression" in entry) return { expression: entry.expression };
    return { value: entry.value === undefined ? null : entry.value };
  }

  /** attributes/current of a group (attributes.py:73): its own attributes and `nodes`. */
  groupCurrent(name: string): Array<[string, WireEntry]> {
    const g = this.#db.group(name);
    if (!g) return [];
    const out: Array<[string, WireEntry]> = Object.keys(g.attributes)
      .sort()
      .map((a) => [a, ConfluentConfig.#groupWire(g.attributes[a] as StoredEntry)]);
    if (g.nodes.length > 0) out.push(["nodes", [...g.nodes]]);
    return out.sort((x, y) => (x[0] < y[0] ? -1 : 1));
  }

  /** attributes/all of a group (attributes.py:43): the schema without `groups`, plus nodes and noderange. */
  groupAll(name: string): Array<[string, WireEntry]> {
    const g = this.#db.group(name);
    if (!g) return [];
    const names = new Set([
      ...Object.keys(CONFLUENT_NODE_ATTRIBUTES),
      ...Object.keys(g.attributes),
      "nodes",
      "noderange",
    ]);
    names.delete("groups");
    return [...names].sort().map((a) => {
      if (a === "nodes") return [a, [...g.nodes]];
      const entry = g.attributes[a];
      if (a === "noderange") {
        return [
          a,
          {
            ...(entry ? (ConfluentConfig.#groupWire(entry) as Record<string, unknown>) : { value: null }),
            desc: "The noderange this group is expanded to when used in noderange, exclusive with static nodes",
          },
        ];
      }
      if (entry) return [a, ConfluentConfig.#groupWire(entry)];
      if (isSecretAttribute(a)) return [a, { isset: false }];
      return [a, { value: null }];
    });
  }

  // ---- writes ------------------------------------------------------------------------------

  /**
   * configmanager.py:2490 set_node_attributes (and add_node_attributes with `create`): checks every
   * node first so that nothing is half-applied, then stores. A node's `groups` is replaced by the
   * list given; creating a node that exists merges into it.
   */
  setNodeAttributes(updates: Record<string, Record<string, unknown>>, create: boolean): void {
    const prepared: Record<string, Record<string, unknown>> = {};
    for (const [node, given] of Object.entries(updates)) {
      if (node === "") throw badRequest(`"${node}" is not a valid node name`);
      if (!create && !this.isNode(node)) throw badRequest(`node ${node} does not exist`);
      const attrs: Record<string, unknown> = {};
      for (const [attribute, value] of Object.entries(given))
        attrs[CONFLUENT_ATTRIBUTE_ALIASES[attribute] ?? attribute] = value;
      if (!("groups" in attrs) && !this.isNode(node)) attrs.groups = [];
      for (const [attribute, value] of Object.entries(attrs)) {
        if (attribute === "groups") {
          let groups: string[];
          if (typeof value === "string") groups = value.split(",");
          else if (Array.isArray(value)) groups = value.map(String);
          else if (value === null) continue;
          else throw new PythonError(`'${pyTypeName(value)}' object has no attribute 'split'`);
          for (const group of groups) {
            if (!this.isGroup(group)) throw badRequest(confluentMessages.groupDoesNotExist(group));
          }
          if (!groups.includes(EVERYTHING)) groups.push(EVERYTHING);
          attrs.groups = groups;
          continue;
        }
        let fixed = value;
        const spec = CONFLUENT_NODE_ATTRIBUTES[schemaNameOf(attribute)];
        if (spec?.type === "bool" && typeof value === "string") {
          fixed = ["true", "1", "y", "yes", "enable", "enabled"].includes(value.toLowerCase());
          attrs[attribute] = fixed;
        }
        if (this.#isInvalid(attribute, fixed))
          throw badRequest(confluentMessages.nodeAttributeInvalid(attribute, node));
      }
      prepared[node] = attrs;
    }
    // Storing can still fail like Python does (an int value): check every node before writing.
    const stored: Record<string, Record<string, StoredEntry | undefined>> = {};
    for (const [node, attrs] of Object.entries(prepared)) {
      stored[node] = {};
      for (const [attribute, value] of Object.entries(attrs)) {
        if (attribute === "groups") continue;
        (stored[node] as Record<string, StoredEntry | undefined>)[attribute] = toStored(attribute, value);
      }
    }
    this.#db.transaction(() => {
      for (const node of naturalSort(Object.keys(prepared))) {
        const attrs = prepared[node] as Record<string, unknown>;
        let row = this.#db.node(node);
        if (!row) row = { name: node, index: this.#allocateIndex(), attributes: {} };
        const attributes: StoredAttributes = { ...row.attributes };
        for (const [attribute, entry] of Object.entries(stored[node] ?? {})) {
          if (entry !== undefined) attributes[attribute] = entry;
        }
        if (Array.isArray(attrs.groups)) {
          const before = (row.attributes.groups as string[] | undefined) ?? [];
          attributes.groups = attrs.groups as string[];
          this.#syncGroupsToNode(node, before, attrs.groups as string[]);
        }
        this.#db.putNode({ ...row, attributes });
      }
    });
  }

  /** configmanager.py:1340 attribute_is_invalid. */
  #isInvalid(attribute: string, value: unknown): boolean {
    if (attribute.startsWith("custom.")) return false;
    const spec = CONFLUENT_NODE_ATTRIBUTES[schemaNameOf(attribute)];
    if (!spec) return true;
    if (spec.type === "bool") {
      const v =
        typeof value === "object" && value !== null && "value" in value
          ? (value as { value: unknown }).value
          : value;
      return typeof v !== "boolean";
    }
    return false;
  }

  #syncGroupsToNode(node: string, before: readonly string[], after: readonly string[]): void {
    for (const group of before) {
      if (after.includes(group)) continue;
      const g = this.#db.group(group);
      if (g) this.#db.putGroup({ ...g, nodes: g.nodes.filter((n) => n !== node) });
    }
    for (const group of after) {
      const g = this.#db.group(group);
      if (g && !g.nodes.includes(node)) this.#db.putGroup({ ...g, nodes: [...g.nodes, node] });
    }
  }

  /** configmanager.py:2353 clear_node_attributes: the node's own entries go; inherited ones show again. */
  clearNodeAttributes(node: string, attributes: readonly string[]): void {
    const row = this.#db.node(node);
    if (!row) return;
    const next: StoredAttributes = { ...row.attributes };
    for (const attribute of attributes) {
      if (attribute === "groups") continue;
      delete next[attribute];
    }
    this.#db.putNode({ ...row, attributes: next });
  }

  /** The own attributes of a node matching a shell-style pattern (fnmatch). */
  ownAttributesMatching(node: string, pattern: string): string[] {
    const re = new RegExp(
      `^${pattern
        .replace(/[.+^${}()|\\]/g, "\\$&")
        .replaceAll("*", ".*")
        .replaceAll("?", ".")}$`,
    );
    return Object.keys(this.resolveNode(node) ?? {}).filter((a) => re.test(a));
  }

  /** node index allocation (configmanager.py:2600): the next after the highest, reusing freed ones late. */
  #allocateIndex(): number {
    const free = JSON.parse(this.#db.getMeta("free_node_indexes") ?? "[]") as number[];
    if (free.length > 128) {
      const idx = free.shift() as number;
      this.#db.setMeta("free_node_indexes", JSON.stringify(free));
      return idx;
    }
    const max = Number(this.#db.getMeta("max_node_index") ?? "1");
    this.#db.setMeta("max_node_index", String(max + 1));
    return max;
  }

  /** configmanager.py:2272 del_nodes. */
  deleteNodes(nodes: readonly string[]): void {
    this.#db.transaction(() => {
      for (const node of naturalSort(nodes)) {
        const row = this.#db.node(node);
        if (!row) continue;
        this.#syncGroupsToNode(node, (row.attributes.groups as string[] | undefined) ?? [], []);
        let max = Number(this.#db.getMeta("max_node_index") ?? "1");
        const free = JSON.parse(this.#db.getMeta("free_node_indexes") ?? "[]") as number[];
        if (row.index === max - 1) {
          max -= 1;
          while (free.includes(max - 1)) {
            free.splice(free.indexOf(max - 1), 1);
            max -= 1;
          }
          this.#db.setMeta("max_node_index", String(max));
        } else free.push(row.index);
        this.#db.setMeta("free_node_indexes", JSON.stringify(free));
        this.#db.deleteNode(node);
      }
    });
  }

  /**
   * configmanager.py:2005 set_group_attributes (create: autocreate). `nodes` sets the members: new
   * members get the group first in their list (configmanager.py _sync_nodes_to_group).
   */
  setGroupAttributes(group: string, given: Record<string, unknown>, create: boolean): void {
    if (group === "") throw badRequest(`"${group}" is not a valid group name`);
    const existing = this.#db.group(group);
    if (!create && !existing) throw badRequest(`${group} group does not exist`);
    const attrs: Record<string, unknown> = {};
    for (const [attribute, value] of Object.entries(given))
      attrs[CONFLUENT_ATTRIBUTE_ALIASES[attribute] ?? attribute] = value;
    let members: string[] | undefined;
    for (const [attribute, value] of Object.entries(attrs)) {
      if (attribute === "nodes") {
        if (typeof value === "string") members = naturalSort(this.noderange().expand(value));
        else if (Array.isArray(value)) members = value.map(String);
        else throw badRequest("nodes attribute on group must be list");
        for (const node of members) {
          if (!this.isNode(node)) throw badRequest(confluentMessages.nodeNotFoundForGroup(node, group));
        }
        continue;
      }
      if (attribute === "noderange") continue;
      let fixed = value;
      const spec = CONFLUENT_NODE_ATTRIBUTES[schemaNameOf(attribute)];
      if (spec?.type === "bool" && typeof value === "string") {
        fixed = ["true", "1", "y", "yes", "enable", "enabled"].includes(value.toLowerCase());
        attrs[attribute] = fixed;
      }
      if (this.#isInvalid(attribute, fixed))
        throw badRequest(confluentMessages.groupAttributeInvalid(attribute));
    }
    const stored: Record<string, StoredEntry | undefined> = {};
    for (const [attribute, value] of Object.entries(attrs)) {
      if (attribute === "nodes") continue;
      stored[attribute] = toStored(attribute, value);
    }
    this.#db.transaction(() => {
      const seq = existing?.seq ?? Number(this.#db.getMeta("group_seq") ?? "0") + 1;
      if (!existing) this.#db.setMeta("group_seq", String(seq));
      const attributes: StoredAttributes = { ...(existing?.attributes ?? {}) };
      for (const [attribute, entry] of Object.entries(stored)) {
        if (entry !== undefined) attributes[attribute] = entry;
      }
      let nodes = [...(existing?.nodes ?? [])];
      if (members) {
        for (const node of nodes) {
          if (members.includes(node)) continue;
          const row = this.#db.node(node);
          if (row) {
            const groups = ((row.attributes.groups as string[] | undefined) ?? []).filter((g) => g !== group);
            this.#db.putNode({ ...row, attributes: { ...row.attributes, groups } });
          }
        }
        for (const node of members) {
          if (nodes.includes(node)) continue;
          const row = this.#db.node(node);
          if (row) {
            const groups = [
              group,
              ...((row.attributes.groups as string[] | undefined) ?? []).filter((g) => g !== group),
            ];
            this.#db.putNode({ ...row, attributes: { ...row.attributes, groups } });
          }
        }
        nodes = members;
      }
      this.#db.putGroup({ name: group, attributes, nodes, seq });
    });
  }

  clearGroupAttributes(group: string, attributes: readonly string[]): void {
    const g = this.#db.group(group);
    if (!g) return;
    const next: StoredAttributes = { ...g.attributes };
    for (const attribute of attributes) delete next[CONFLUENT_ATTRIBUTE_ALIASES[attribute] ?? attribute];
    this.#db.putGroup({ ...g, attributes: next });
  }

  /** configmanager.py:2324 del_groups: members silently lose the group. */
  deleteGroup(group: string): void {
    const g = this.#db.group(group);
    if (!g) return;
    this.#db.transaction(() => {
      for (const node of g.nodes) {
        const row: NodeRow | undefined = this.#db.node(node);
        if (!row) continue;
        const groups = ((row.attributes.groups as string[] | undefined) ?? []).filter((x) => x !== group);
        this.#db.putNode({ ...row, attributes: { ...row.attributes, groups } });
      }
      this.#db.deleteGroup(group);
    });
  }
}
