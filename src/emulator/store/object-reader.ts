/**
 * Derives objects from tables the way lsdef does (DBobjUtils getobjdefs; xcat-behavior.md §5):
 * every attribute is read from its table column through the attribute map, node rows inherit
 * from the rows of their groups (§5.2), and the `xcatdefaults` postscripts are prepended.
 *
 * Reads are batched per table (one query per table for any number of objects), so reading 1,000
 * nodes costs about as many queries as reading one.
 */
import { expandTemplate } from "../../contract/regex-values";
import type { ObjectType } from "../../contract/schema";
import { chooseMapping, type RowSource, type TypeMap, typeMap } from "./attribute-map";
import type { Database, Row } from "./database";
import type { NodeIndex } from "./node-index";

/** An object as lsdef shows it: attribute to non-empty value. */
export type ObjectAttributes = Record<string, string>;

/** Above this many names a full table read is cheaper than IN lists. */
const FULL_SCAN_THRESHOLD = 200;

function indexBy(rows: readonly Row[], column: string): Map<string, Row> {
  const map = new Map<string, Row>();
  for (const row of rows) {
    const key = row[column];
    if (key !== undefined && !map.has(key)) map.set(key, row);
  }
  return map;
}

function fetchSource(
  db: Database,
  source: RowSource,
  names: readonly string[] | undefined,
): Map<string, Row> {
  if (!source.nameColumn) return new Map();
  const column = source.nameColumn;
  const rows =
    names === undefined || names.length > FULL_SCAN_THRESHOLD
      ? db.select(source.table, source.literals)
      : db.selectIn(source.table, column, names, source.literals);
  return indexBy(rows, column);
}

/** Reads objects of a type; `names` undefined means all of them. Missing objects are omitted. */
export class ObjectReader {
  readonly #db: Database;
  readonly #index: NodeIndex;

  constructor(db: Database, index: NodeIndex) {
    this.#db = db;
    this.#index = index;
  }

  /** Names of the defined objects of a type, sorted as strings (lsdef order). */
  list(type: ObjectType): string[] {
    switch (type) {
      case "node":
        return this.#index
          .allNodes()
          .filter((n) => !this.#index.isHidden(n))
          .sort(cmp);
      case "group":
        return this.#index.allGroups();
      case "site":
        return ["clustersite"];
      default: {
        const map = typeMap(type);
        const table = keyTable(type);
        return [
          ...new Set(
            this.#db
              .select(table)
              .map((r) => r[map.keyAttribute])
              .filter((n): n is string => n !== undefined && n !== ""),
          ),
        ].sort(cmp);
      }
    }
  }

  exists(type: ObjectType, name: string): boolean {
    switch (type) {
      case "node":
        return this.#index.isNode(name);
      case "group":
        return this.#index.isGroup(name);
      case "site":
        return name === "clustersite";
      default:
        return this.#db.first(keyTable(type), { [typeMap(type).keyAttribute]: name }) !== undefined;
    }
  }

  /**
   * Objects by name with their non-empty attributes, sorted by attribute name. A group's
   * `members` is listed unless `members: false`: the checks of a node write want the group's
   * values only, and listing a group of thousands on every write made creating N nodes O(N²).
   */
  read(
    type: ObjectType,
    names: readonly string[],
    { members = true }: { readonly members?: boolean } = {},
  ): Map<string, ObjectAttributes> {
    if (type === "site") return new Map([["clustersite", this.readSite()]]);
    const existing = names.filter((n) => this.exists(type, n));
    const map = typeMap(type);
    const inherit = type === "node";
    const lookupNames = new Set(existing);
    if (inherit) for (const n of existing) for (const g of this.#index.groupsOf(n)) lookupNames.add(g);
    const all = names.length > FULL_SCAN_THRESHOLD ? undefined : [...lookupNames];
    const bySource = new Map<string, Map<string, Row>>();
    for (const source of map.sources) bySource.set(source.id, fetchSource(this.#db, source, all));
    const defaults = type === "node" ? this.#db.first("postscripts", { node: "xcatdefaults" }) : undefined;

    const result = new Map<string, ObjectAttributes>();
    for (const name of existing) {
      const groups = inherit ? this.#index.groupsOf(name) : [];
      const merged = new Map<string, Row | undefined>();
      const rowOf = (source: RowSource): Row | undefined => {
        if (merged.has(source.id)) return merged.get(source.id);
        const rows = bySource.get(source.id);
        const own = rows?.get(name);
        let row: Row | undefined = own;
        // nodelist columns are never inherited (§5.2).
        if (inherit && source.table !== "nodelist" && groups.length > 0 && rows) {
          row = { ...(own ?? {}) };
          for (const g of groups) {
            const groupRow = rows.get(g);
            if (!groupRow) continue;
            for (const [column, value] of Object.entries(groupRow)) {
              if (row[column] === undefined && column !== source.nameColumn) row[column] = value;
            }
          }
        }
        if (row && inherit) {
          for (const [column, value] of Object.entries(row)) {
            if (value.startsWith("|")) row[column] = expandTemplate(value, name);
          }
        }
        merged.set(source.id, row);
        return row;
      };
      result.set(name, this.#attributesOf(map, name, rowOf, defaults, members));
    }
    return result;
  }

  #attributesOf(
    map: TypeMap,
    name: string,
    rowOf: (source: RowSource) => Row | undefined,
    defaults: Row | undefined,
    withMembers: boolean,
  ): ObjectAttributes {
    const plainValue = (attribute: string): string | undefined => {
      const mappings = map.attributes.get(attribute);
      const plain = mappings?.find((m) => !m.onlyIf);
      return plain ? rowOf(plain.source)?.[plain.column] : undefined;
    };
    const out: ObjectAttributes = {};
    for (const [attribute, mappings] of map.attributes) {
      if (attribute === map.keyAttribute) continue;
      let value: string | undefined;
      for (const m of mappings) {
        if (!m.onlyIf || m.onlyIf.attribute === attribute) continue;
        if (plainValue(m.onlyIf.attribute) !== m.onlyIf.value) continue;
        value = rowOf(m.source)?.[m.column];
        if (value !== undefined) break;
      }
      if (value === undefined) {
        const plain = chooseMapping(
          mappings.filter((m) => !m.onlyIf),
          () => undefined,
        );
        value = plain ? rowOf(plain.source)?.[plain.column] : undefined;
      }
      if (value !== undefined && value !== "") out[attribute] = value;
    }
    if (map.type === "node" && defaults) {
      for (const attribute of ["postscripts", "postbootscripts"]) {
        const base = defaults[attribute];
        if (!base) continue;
        const own = out[attribute];
        out[attribute] = own ? `${base},${own}` : base;
      }
    }
    if (map.type === "group" && withMembers) {
      out.members = (this.#index.groupMembers(name) ?? []).join(",");
    }
    return sortKeys(out);
  }

  /** The clustersite object: every site row with a value (§5.6). */
  readSite(): ObjectAttributes {
    const out: ObjectAttributes = {};
    for (const row of this.#db.select("site")) {
      if (row.key !== undefined && row.value !== undefined) out[row.key] = row.value;
    }
    return sortKeys(out);
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The table whose rows define the objects of a non-node type. */
export function keyTable(type: ObjectType): string {
  switch (type) {
    case "osimage":
      return "osimage";
    case "network":
      return "networks";
    case "policy":
      return "policy";
    case "route":
      return "routes";
    case "group":
      return "nodegroup";
    case "site":
      return "site";
    case "node":
      return "nodelist";
  }
}

/** A copy with keys in string order (lsdef prints attributes sorted). */
export function sortKeys(object: ObjectAttributes): ObjectAttributes {
  const out: ObjectAttributes = {};
  for (const key of Object.keys(object).sort(cmp)) {
    const value = object[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
