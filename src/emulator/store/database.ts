/**
 * The emulator's one data store: every xCAT table (xcat-schema/tables.tsv) as an SQLite table
 * with xCAT's key columns as primary key, plus a few `_emu_*` tables for simulated hardware and
 * services. `node:sqlite` is built into Node (no native addon, nothing to download), runs in
 * memory or on one file, and gives indexed lookups, so a 1,000-node read is a handful of queries.
 *
 * Rows are exchanged as plain `Record<string, string>` holding only the non-empty columns: xCAT
 * treats NULL and "" alike on reads, and so do the object and table layers above this file.
 */
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import { type TableSchema, tableNames, tableSchema } from "../../contract/schema";
import { inTransaction } from "../../emulator-kit";

/** A table row: column name to non-empty value. */
export type Row = Record<string, string>;

/** Tables the emulator keeps for state that lives outside xCAT's database on a real MN. */
export const EMULATOR_TABLES: Readonly<
  Record<string, { keys: readonly string[]; columns: readonly string[] }>
> = {
  _emu_meta: { keys: ["key"], columns: ["key", "value"] },
  /** Simulated hardware per node (power, boot device, beacon, event log, energy, sp, VM), as JSON. */
  _emu_hardware: { keys: ["node"], columns: ["node", "state"] },
  /** Boots under way (boot-sequence.ts): method, planned outcome, start time (ms) and last step written. */
  _emu_boot: { keys: ["node"], columns: ["node", "method", "outcome", "started", "step"] },
  /** The MN's /etc/hosts as makehosts writes it. */
  _emu_etchosts: { keys: ["name"], columns: ["name", "ip", "aliases"] },
  /** DNS A records written by makedns. */
  _emu_dns: { keys: ["name"], columns: ["name", "ip"] },
  /** DHCP host entries written by makedhcp. */
  _emu_dhcp: { keys: ["node"], columns: ["node", "mac", "ip"] },
  /** Services configured by /services/* (dns, dhcp). */
  _emu_services: { keys: ["name"], columns: ["name", "state"] },
  /** Files copied by nodecopy (xdcp). */
  _emu_copies: { keys: ["node", "src", "target"], columns: ["node", "src", "target"] },
  /** Generated / packed / exported image instances. */
  _emu_images: { keys: ["imagename"], columns: ["imagename", "state"] },
};

const DISABLED_FILTER = `("disable" IS NULL OR "disable" = '' OR "disable" = '0' OR lower("disable") = 'no')`;

function q(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

/** Splits long IN lists: SQLite limits the number of bound parameters per statement. */
const IN_CHUNK = 500;

function toRow(raw: Record<string, SQLInputValue> | undefined): Row | undefined {
  if (!raw) return undefined;
  const row: Row = {};
  for (const [k, v] of Object.entries(raw)) {
    if (v === null || v === undefined) continue;
    const s = String(v);
    if (s !== "") row[k] = s;
  }
  return row;
}

/** Listener told which key values of a table changed, so in-memory indexes stay exact. */
export type ChangeListener = (table: string) => void;

/**
 * SQLite access for tables by name. It knows nothing of xCAT objects or HTTP; it keeps xCAT's
 * "disabled rows are invisible" rule (Table.pm) on every read.
 */
export class Database {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();
  readonly #listeners: ChangeListener[] = [];

  constructor(file?: string) {
    this.#db = new DatabaseSync(file ?? ":memory:");
    if (file) {
      this.#db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
    }
    this.#createTables();
  }

  /** Schema of an xCAT table or an `_emu_*` table. */
  schema(table: string): TableSchema | undefined {
    const emu = EMULATOR_TABLES[table];
    if (emu) return { name: table, keys: emu.keys, columns: emu.columns };
    return tableSchema(table);
  }

  onChange(listener: ChangeListener): void {
    this.#listeners.push(listener);
  }

  #changed(table: string): void {
    for (const listener of this.#listeners) listener(table);
  }

  #createTables(): void {
    const all = [...tableNames(), ...Object.keys(EMULATOR_TABLES)];
    const ddl: string[] = [];
    for (const name of all) {
      const schema = this.schema(name);
      if (!schema) continue;
      const cols = schema.columns.map((c) => `${q(c)} TEXT`).join(", ");
      ddl.push(
        `CREATE TABLE IF NOT EXISTS ${q(name)} (${cols}, PRIMARY KEY (${schema.keys.map(q).join(", ")}))`,
      );
    }
    // Object names that are not the primary key are looked up often.
    ddl.push(`CREATE INDEX IF NOT EXISTS networks_netname ON networks (netname)`);
    ddl.push(`CREATE INDEX IF NOT EXISTS vm_host ON vm (host)`);
    ddl.push(`CREATE INDEX IF NOT EXISTS ppc_parent ON ppc (parent)`);
    ddl.push(`CREATE INDEX IF NOT EXISTS mp_mpa ON mp (mpa)`);
    this.#db.exec(`BEGIN; ${ddl.join(";\n")}; COMMIT;`);
  }

  #prepare(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #checkColumns(table: string, columns: Iterable<string>): TableSchema {
    const schema = this.schema(table);
    if (!schema) throw new Error(`no such table ${table}`);
    for (const c of columns) {
      if (!schema.columns.includes(c)) throw new Error(`table ${table} has no column named ${c}`);
    }
    return schema;
  }

  /** Rows matching every `column = value` pair (all rows without pairs), disabled rows excluded. */
  select(
    table: string,
    where: Readonly<Record<string, string>> = {},
    options: { includeDisabled?: boolean } = {},
  ) {
    const cols = Object.keys(where);
    this.#checkColumns(table, cols);
    const clauses = cols.map((c) => `${q(c)} = ?`);
    if (!options.includeDisabled && this.schema(table)?.columns.includes("disable"))
      clauses.push(DISABLED_FILTER);
    const sql = `SELECT * FROM ${q(table)}${clauses.length ? ` WHERE ${clauses.join(" AND ")}` : ""} ORDER BY rowid`;
    return this.#prepare(sql)
      .all(...cols.map((c) => where[c] ?? ""))
      .map((r) => toRow(r as Record<string, SQLInputValue>) ?? {});
  }

  /** The first row matching the pairs, or undefined. */
  first(table: string, where: Readonly<Record<string, string>>): Row | undefined {
    const cols = Object.keys(where);
    this.#checkColumns(table, cols);
    const clauses = cols.map((c) => `${q(c)} = ?`);
    if (this.schema(table)?.columns.includes("disable")) clauses.push(DISABLED_FILTER);
    const sql = `SELECT * FROM ${q(table)} WHERE ${clauses.join(" AND ")} ORDER BY rowid LIMIT 1`;
    return toRow(this.#prepare(sql).get(...cols.map((c) => where[c] ?? "")) as Record<string, SQLInputValue>);
  }

  /**
   * Rows whose `column` is one of `values` (and whose `fixed` columns match), in batches: one
   * query per 500 values instead of one per value.
   */
  selectIn(
    table: string,
    column: string,
    values: readonly string[],
    fixed: Readonly<Record<string, string>> = {},
  ) {
    const fixedCols = Object.keys(fixed);
    this.#checkColumns(table, [column, ...fixedCols]);
    const hasDisable = this.schema(table)?.columns.includes("disable") ?? false;
    const out: Row[] = [];
    for (let i = 0; i < values.length; i += IN_CHUNK) {
      const chunk = values.slice(i, i + IN_CHUNK);
      const clauses = [
        `${q(column)} IN (${chunk.map(() => "?").join(",")})`,
        ...fixedCols.map((c) => `${q(c)} = ?`),
      ];
      if (hasDisable) clauses.push(DISABLED_FILTER);
      const sql = `SELECT * FROM ${q(table)} WHERE ${clauses.join(" AND ")}`;
      for (const raw of this.#prepare(sql).all(...chunk, ...fixedCols.map((c) => fixed[c] ?? ""))) {
        out.push(toRow(raw as Record<string, SQLInputValue>) ?? {});
      }
    }
    return out;
  }

  /**
   * Sets columns of the rows matching `where`; inserts one row from `where` + `values` when none
   * matches (Table.pm setAttribs). `null` or "" clear a column. Returns whether a row was inserted.
   */
  upsert(
    table: string,
    where: Readonly<Record<string, string>>,
    values: Readonly<Record<string, string | null>>,
  ) {
    const schema = this.#checkColumns(table, [...Object.keys(where), ...Object.keys(values)]);
    const whereCols = Object.keys(where);
    const exists =
      whereCols.length > 0 &&
      this.#prepare(
        `SELECT 1 FROM ${q(table)} WHERE ${whereCols.map((c) => `${q(c)} = ?`).join(" AND ")} LIMIT 1`,
      ).get(...whereCols.map((c) => where[c] ?? "")) !== undefined;
    const valueCols = Object.keys(values);
    if (exists) {
      if (valueCols.length === 0) return false;
      const sql = `UPDATE ${q(table)} SET ${valueCols.map((c) => `${q(c)} = ?`).join(", ")} WHERE ${whereCols
        .map((c) => `${q(c)} = ?`)
        .join(" AND ")}`;
      this.#prepare(sql).run(
        ...valueCols.map((c) => emptyToNull(values[c])),
        ...whereCols.map((c) => where[c] ?? ""),
      );
      this.#changed(table);
      return false;
    }
    const row: Record<string, string | null> = { ...values, ...where };
    for (const key of schema.keys) if (row[key] === undefined || row[key] === null) row[key] = "";
    if (Object.entries(row).every(([c, v]) => schema.keys.includes(c) || v === null || v === ""))
      return false;
    this.insert(table, row);
    return true;
  }

  /** Inserts (or replaces, on a key collision) one row. */
  insert(table: string, row: Readonly<Record<string, string | null>>): void {
    const cols = Object.keys(row);
    const schema = this.#checkColumns(table, cols);
    const full: Record<string, string | null> = { ...row };
    for (const key of schema.keys) if (full[key] === undefined || full[key] === null) full[key] = "";
    const names = Object.keys(full);
    const sql = `INSERT OR REPLACE INTO ${q(table)} (${names.map(q).join(", ")}) VALUES (${names.map(() => "?").join(", ")})`;
    this.#prepare(sql).run(
      ...names.map((c) => (schema.keys.includes(c) ? (full[c] ?? "") : emptyToNull(full[c] ?? null))),
    );
    this.#changed(table);
  }

  /** Deletes every row matching all pairs (all rows without pairs); returns how many went. */
  delete(table: string, where: Readonly<Record<string, string>>): number {
    const cols = Object.keys(where);
    this.#checkColumns(table, cols);
    const sql = `DELETE FROM ${q(table)}${cols.length ? ` WHERE ${cols.map((c) => `${q(c)} = ?`).join(" AND ")}` : ""}`;
    const result = this.#prepare(sql).run(...cols.map((c) => where[c] ?? ""));
    if (Number(result.changes) > 0) this.#changed(table);
    return Number(result.changes);
  }

  /** Deletes rows whose `column` is one of `values`. */
  deleteIn(table: string, column: string, values: readonly string[]): void {
    this.#checkColumns(table, [column]);
    for (let i = 0; i < values.length; i += IN_CHUNK) {
      const chunk = values.slice(i, i + IN_CHUNK);
      this.#prepare(`DELETE FROM ${q(table)} WHERE ${q(column)} IN (${chunk.map(() => "?").join(",")})`).run(
        ...chunk,
      );
    }
    this.#changed(table);
  }

  /** Every row of a table including disabled ones and empty columns, for snapshots. */
  dump(table: string): Row[] {
    this.#checkColumns(table, []);
    return this.#prepare(`SELECT * FROM ${q(table)}`)
      .all()
      .map((r) => toRow(r as Record<string, SQLInputValue>) ?? {});
  }

  /** Runs `fn` in one transaction (nested calls join the outer one). */
  transaction<T>(fn: () => T): T {
    return inTransaction(this.#db, fn);
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }
}

function emptyToNull(value: string | null | undefined): string | null {
  return value === undefined || value === null || value === "" ? null : value;
}
