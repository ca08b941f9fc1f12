/**
 * The table-level commands behind /tables (tabutils.pm, Table.pm; xcat-behavior.md §5.8):
 * node rows with group inheritance, all rows, keyed rows (first match only, plus xcatdsource),
 * setAttribs (update every match or insert one row) and delEntries.
 */
import { NO_TABLE_ROWS_MATCHED, noSuchTable } from "../../contract/messages";
import { expandTemplate } from "../../contract/regex-values";
import { tableSchema } from "../../contract/schema";
import type { Database, Row } from "./database";
import { CommandError } from "./errors";
import type { NodeIndex } from "./node-index";
import { MN_HOSTNAME } from "./seed";

/** Column selection of a node-table read: bare names apply to every table, `t.c` to one. */
export function columnFilter(
  table: string,
  attrs: readonly string[] | undefined,
): ((c: string) => boolean) | undefined {
  if (!attrs) return undefined;
  const wanted = new Set<string>();
  for (const a of attrs) {
    const dot = a.indexOf(".");
    if (dot < 0) wanted.add(a);
    else if (a.slice(0, dot) === table) wanted.add(a.slice(dot + 1));
  }
  return (c) => wanted.has(c);
}

export class TableCommands {
  readonly #db: Database;
  readonly #index: NodeIndex;

  constructor(db: Database, index: NodeIndex) {
    this.#db = db;
    this.#index = index;
  }

  #check(tables: readonly string[]): void {
    const unknown = tables.filter((t) => !tableSchema(t));
    if (unknown.length > 0) throw new CommandError([noSuchTable(tables)]);
  }

  /** getTablesNodesAttribs: one row per node per table, `name` first, inherited values included. */
  nodeRows(tables: readonly string[], nodes: readonly string[], attrs?: readonly string[]) {
    this.#check(tables);
    const out: Record<string, Row[]> = {};
    const lookup = new Set(nodes);
    for (const n of nodes) for (const g of this.#index.groupsOf(n)) lookup.add(g);
    for (const table of tables) {
      const schema = tableSchema(table);
      const keyColumn = schema?.keys[0] ?? "node";
      const rows = new Map<string, Row>();
      const fetched =
        lookup.size > 200 ? this.#db.select(table) : this.#db.selectIn(table, keyColumn, [...lookup]);
      for (const row of fetched) {
        const key = row[keyColumn];
        if (key !== undefined && !rows.has(key)) rows.set(key, row);
      }
      const filter = columnFilter(table, attrs);
      out[table] = nodes.map((node) => {
        const merged: Row = { ...(rows.get(node) ?? {}) };
        if (table !== "nodelist") {
          for (const g of this.#index.groupsOf(node)) {
            for (const [c, v] of Object.entries(rows.get(g) ?? {}))
              if (merged[c] === undefined) merged[c] = v;
          }
        }
        const row: Row = { name: node };
        for (const [c, v] of Object.entries(merged)) {
          if (c === keyColumn || (filter && !filter(c))) continue;
          row[c] = v.startsWith("|") ? expandTemplate(v, node) : v;
        }
        return row;
      });
    }
    return out;
  }

  /** nodech: sets `table.column` values for existing nodes. */
  setNodeRows(nodes: readonly string[], values: ReadonlyMap<string, ReadonlyMap<string, string>>): void {
    this.#check([...values.keys()]);
    const errors: string[] = [];
    for (const [table, columns] of values) {
      const schema = tableSchema(table);
      for (const column of columns.keys()) {
        if (!schema?.columns.includes(column))
          // tabutils.pm:1636 (nodech), as the real 2.19 answered.
          errors.push(`${table}.${column} not a valid table.column description`);
      }
    }
    if (errors.length > 0) throw new CommandError(errors);
    this.#db.transaction(() => {
      for (const [table, columns] of values) {
        const keyColumn = tableSchema(table)?.keys[0] ?? "node";
        const set = Object.fromEntries([...columns].map(([c, v]) => [c, v === "" ? null : v]));
        for (const node of nodes) this.#db.upsert(table, { [keyColumn]: node }, set);
      }
    });
  }

  /** getTablesAllRowAttribs: non-empty columns of every enabled row with any value. */
  allRows(tables: readonly string[]): Record<string, Row[]> {
    this.#check(tables);
    const out: Record<string, Row[]> = {};
    for (const table of tables) out[table] = this.#db.select(table).filter((r) => Object.keys(r).length > 0);
    return out;
  }

  /** getAttribs: the first row matching the pairs, with the requested non-empty columns. */
  firstRow(table: string, keys: Readonly<Record<string, string>>, attrs?: readonly string[]): Row {
    this.#check([table]);
    const schema = tableSchema(table);
    const columns = Object.keys(keys);
    if (!schema || columns.some((c) => !schema.columns.includes(c)))
      throw new CommandError([NO_TABLE_ROWS_MATCHED]);
    if (attrs?.some((a) => !schema.columns.includes(a))) throw new CommandError([NO_TABLE_ROWS_MATCHED]);
    for (const row of this.#db.select(table, keys)) {
      const picked: Row = {};
      for (const [c, v] of Object.entries(row)) if (!attrs || attrs.includes(c)) picked[c] = v;
      if (Object.keys(picked).length === 0) continue;
      return { ...picked, xcatdsource: MN_HOSTNAME };
    }
    throw new CommandError([NO_TABLE_ROWS_MATCHED]);
  }

  /** setAttribs: updates every row matching all pairs, or inserts one (the string "NULL" is NULL). */
  setRows(
    table: string,
    keys: Readonly<Record<string, string>>,
    values: Readonly<Record<string, string | null>>,
  ): void {
    const schema = tableSchema(table);
    if (!schema) throw new CommandError([`tabutils: Unknown table ${table}`]);
    const bad = [...Object.keys(keys), ...Object.keys(values)].filter((c) => !schema.columns.includes(c));
    if (bad.length > 0) {
      throw new CommandError([
        `tabutils: DBD::SQLite::st execute failed: table ${table} has no column named ${bad[0]}`,
      ]);
    }
    const converted = Object.fromEntries(
      Object.entries(values).map(([c, v]) => [c, v === "NULL" ? null : v]),
    );
    this.#db.upsert(table, keys, converted);
  }

  /** delEntries: deletes every row matching all pairs; nothing matching is not an error. */
  deleteRows(table: string, keys: Readonly<Record<string, string>>): void {
    const schema = tableSchema(table);
    if (!schema) throw new CommandError([`tabutils: Unknown table ${table}`]);
    if (Object.keys(keys).some((c) => !schema.columns.includes(c))) return;
    this.#db.delete(table, keys);
  }
}
