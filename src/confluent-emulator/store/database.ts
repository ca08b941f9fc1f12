/**
 * The emulator's SQLite file (or memory): Confluent keeps its configuration as Python dicts
 * pickled to /etc/confluent/cfg; here each node and group is one row whose attributes are a JSON
 * object of stored entries, so a restart with the same data file sees the same cluster.
 * `node:sqlite` is built into Node (no native addon).
 */
import { DatabaseSync } from "node:sqlite";
import { inTransaction } from "../../emulator-kit";

/** How an attribute is stored (configmanager.py _true_set_node_attributes). */
export type StoredEntry =
  | { readonly value: unknown }
  | { readonly expression: string }
  /** A secret: kept for checks and simulated BMC logins, never returned. */
  | { readonly secret: string }
  /** `groups`, or a list written to a scalar attribute. */
  | readonly unknown[];

export type StoredAttributes = Record<string, StoredEntry>;

export interface NodeRow {
  readonly name: string;
  readonly index: number;
  readonly attributes: StoredAttributes;
}

export interface GroupRow {
  readonly name: string;
  readonly attributes: StoredAttributes;
  /** Members in the order they joined (Confluent keeps a set). */
  readonly nodes: readonly string[];
  /** Creation order, for the tie-break of abbreviate (a dict's insertion order in Confluent). */
  readonly seq: number;
}

export class ConfluentDatabase {
  readonly #db: DatabaseSync;

  constructor(file?: string) {
    this.#db = new DatabaseSync(file ?? ":memory:");
    if (file) this.#db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
    this.#db.exec(`
      CREATE TABLE IF NOT EXISTS cf_nodes (name TEXT PRIMARY KEY, idx INTEGER NOT NULL, attrs TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS cf_groups (name TEXT PRIMARY KEY, attrs TEXT NOT NULL, nodes TEXT NOT NULL, seq INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS cf_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS cf_hardware (node TEXT PRIMARY KEY, state TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS cf_profiles (name TEXT PRIMARY KEY, info TEXT NOT NULL);
    `);
  }

  transaction<T>(fn: () => T): T {
    return inTransaction(this.#db, fn);
  }

  getMeta(key: string): string | undefined {
    const row = this.#db.prepare("SELECT value FROM cf_meta WHERE key = ?").get(key) as
      | { value: string }
      | undefined;
    return row?.value;
  }

  setMeta(key: string, value: string): void {
    this.#db.prepare("INSERT OR REPLACE INTO cf_meta (key, value) VALUES (?, ?)").run(key, value);
  }

  node(name: string): NodeRow | undefined {
    const row = this.#db.prepare("SELECT name, idx, attrs FROM cf_nodes WHERE name = ?").get(name) as
      | { name: string; idx: number; attrs: string }
      | undefined;
    return row ? { name: row.name, index: Number(row.idx), attributes: JSON.parse(row.attrs) } : undefined;
  }

  nodeNames(): string[] {
    return (this.#db.prepare("SELECT name FROM cf_nodes").all() as Array<{ name: string }>).map(
      (r) => r.name,
    );
  }

  allNodes(): NodeRow[] {
    return (
      this.#db.prepare("SELECT name, idx, attrs FROM cf_nodes").all() as Array<{
        name: string;
        idx: number;
        attrs: string;
      }>
    ).map((r) => ({ name: r.name, index: Number(r.idx), attributes: JSON.parse(r.attrs) }));
  }

  putNode(row: NodeRow): void {
    this.#db
      .prepare("INSERT OR REPLACE INTO cf_nodes (name, idx, attrs) VALUES (?, ?, ?)")
      .run(row.name, row.index, JSON.stringify(row.attributes));
  }

  deleteNode(name: string): void {
    this.#db.prepare("DELETE FROM cf_nodes WHERE name = ?").run(name);
    this.#db.prepare("DELETE FROM cf_hardware WHERE node = ?").run(name);
  }

  group(name: string): GroupRow | undefined {
    const row = this.#db.prepare("SELECT name, attrs, nodes, seq FROM cf_groups WHERE name = ?").get(name) as
      | { name: string; attrs: string; nodes: string; seq: number }
      | undefined;
    return row
      ? {
          name: row.name,
          attributes: JSON.parse(row.attrs),
          nodes: JSON.parse(row.nodes),
          seq: Number(row.seq),
        }
      : undefined;
  }

  allGroups(): GroupRow[] {
    return (
      this.#db.prepare("SELECT name, attrs, nodes, seq FROM cf_groups ORDER BY seq").all() as Array<{
        name: string;
        attrs: string;
        nodes: string;
        seq: number;
      }>
    ).map((r) => ({
      name: r.name,
      attributes: JSON.parse(r.attrs),
      nodes: JSON.parse(r.nodes),
      seq: Number(r.seq),
    }));
  }

  putGroup(row: GroupRow): void {
    this.#db
      .prepare("INSERT OR REPLACE INTO cf_groups (name, attrs, nodes, seq) VALUES (?, ?, ?, ?)")
      .run(row.name, JSON.stringify(row.attributes), JSON.stringify(row.nodes), row.seq);
  }

  deleteGroup(name: string): void {
    this.#db.prepare("DELETE FROM cf_groups WHERE name = ?").run(name);
  }

  hardware<T>(node: string): T | undefined {
    const row = this.#db.prepare("SELECT state FROM cf_hardware WHERE node = ?").get(node) as
      | { state: string }
      | undefined;
    return row ? (JSON.parse(row.state) as T) : undefined;
  }

  /** Nodes whose simulated hardware is in the middle of a deployment. */
  deployingNodes(): string[] {
    return (
      this.#db.prepare(`SELECT node FROM cf_hardware WHERE state LIKE '%"deploying"%'`).all() as Array<{
        node: string;
      }>
    ).map((r) => r.node);
  }

  putHardware(node: string, state: unknown): void {
    this.#db
      .prepare("INSERT OR REPLACE INTO cf_hardware (node, state) VALUES (?, ?)")
      .run(node, JSON.stringify(state));
  }

  profiles(): Array<{ name: string; info: Record<string, unknown> }> {
    return (
      this.#db.prepare("SELECT name, info FROM cf_profiles ORDER BY name").all() as Array<{
        name: string;
        info: string;
      }>
    ).map((r) => ({ name: r.name, info: JSON.parse(r.info) }));
  }

  putProfile(name: string, info: Record<string, unknown>): void {
    this.#db
      .prepare("INSERT OR REPLACE INTO cf_profiles (name, info) VALUES (?, ?)")
      .run(name, JSON.stringify(info));
  }

  close(): void {
    this.#db.close();
  }
}
