/**
 * client.tables: direct access to xCAT's database tables, faster than the object endpoints for
 * many nodes. Node tables (nodetype, noderes, ...) are keyed by node; others (routes, site,
 * passwd, networks, ...) by their key columns.
 */
import { z } from "zod";
import { tableSchema } from "../../contract/schema";
import { type Answer, type Engine, parseBody } from "../engine";
import { attributeListSegment, keysSegment, noderangeSegment, tableListSegment } from "../names";
import { withoutSource } from "../quirks";
import type { CallOptions } from "../types";
import type { Noderange } from "./nodes";

/** One table row: column → value. Empty columns are absent. */
export type TableRow = Readonly<Record<string, string>>;

/** Rows per table name. */
export type TableRows = Readonly<Record<string, readonly TableRow[]>>;

// Like the contract's TableRowsResponse, but node-table reads may leave an empty column as null.
const LenientTableRows = z.record(z.string(), z.array(z.record(z.string(), z.union([z.string(), z.null()]))));

function rows(answer: Answer): Record<string, TableRow[]> {
  if (answer.body === undefined || answer.body === null) return {};
  const parsed = parseBody(answer, LenientTableRows);
  const out: Record<string, TableRow[]> = {};
  for (const [table, list] of Object.entries(parsed)) {
    out[table] = list.map((row) =>
      withoutSource(
        Object.fromEntries(Object.entries(row).filter((e): e is [string, string] => e[1] !== null)),
      ),
    );
  }
  return out;
}

/**
 * A keyed row read (getAttribs) never asks a real xcatd for the `node` column: tabutils answers
 * each column at the top level of its response, and xcatd's command log takes a top-level `node`
 * for its per-node structure and dies on it, so the connection ends without an answer and
 * xcatws says 503 "communication with the xCAT server seems to have been ended prematurely"
 * (xcatd cmdlog_collectlog 3499-3509 at master, the same on 2.16.5 to 2.18.2; measured on 2.19;
 * docs/xcat-behavior-found.md). The node is known from the keys anyway.
 */
const DROPS_THE_CONNECTION = "node";

/**
 * Database tables.
 *
 * @example
 * ```ts
 * await client.tables.setRows("routes", { routename: "privnet" }, { net: "10.1.0.0", mask: "255.255.0.0", gateway: "10.0.0.1" });
 * const [route] = await client.tables.getRows("routes", { routename: "privnet" });
 * ```
 */
export class TablesApi {
  readonly #engine: Engine;

  constructor(engine: Engine) {
    this.#engine = engine;
  }

  /**
   * The rows of node tables for the nodes, per table (each row has `name`); `attrs` limits the
   * columns. Group values are inherited as lsdef would show them.
   *
   * @example
   * ```ts
   * const { nodetype } = await client.tables.getNodeRows(["nodetype"], "n[01-04]");
   * ```
   */
  async getNodeRows(
    tables: string | readonly string[],
    noderange: Noderange,
    attrs?: readonly string[],
    options?: CallOptions,
  ): Promise<TableRows> {
    if (attrs !== undefined) return this.getNodeRowsAttrs(tables, noderange, attrs, options);
    const answer = await this.#engine.call({
      route: "tables.getNodeRows",
      params: { tablelist: tableListSegment(tables), noderange: noderangeSegment(noderange) },
      options,
    });
    return rows(answer);
  }

  /**
   * Selected columns of node tables (`table.column` restricts a column to one table).
   *
   * @example
   * ```ts
   * const { noderes } = await client.tables.getNodeRowsAttrs(["noderes"], "n01", ["netboot"]);
   * ```
   */
  async getNodeRowsAttrs(
    tables: string | readonly string[],
    noderange: Noderange,
    attrs: readonly string[],
    options?: CallOptions,
  ): Promise<TableRows> {
    const answer = await this.#engine.call({
      route: "tables.getNodeRowsAttrs",
      params: {
        tablelist: tableListSegment(tables),
        noderange: noderangeSegment(noderange),
        attrs: attributeListSegment(attrs, "column name"),
      },
      options,
    });
    return rows(answer);
  }

  /**
   * Writes node-table columns for the nodes (nodech), creating rows as needed.
   *
   * @example
   * ```ts
   * await client.tables.setNodeRows("n01", { nodetype: { arch: "x86_64" }, noderes: { netboot: "xnba" } });
   * ```
   */
  async setNodeRows(
    noderange: Noderange,
    values: Readonly<Record<string, Readonly<Record<string, string>>>>,
    options?: CallOptions,
  ): Promise<void> {
    await this.#engine.call({
      route: "tables.setNodeRows",
      params: { tablelist: tableListSegment(Object.keys(values)), noderange: noderangeSegment(noderange) },
      body: values,
      options,
    });
  }

  /**
   * All rows of tables that are not keyed by node. An empty table gives `[]` for it.
   *
   * @example
   * ```ts
   * const { routes } = await client.tables.getAllRows(["routes"]);
   * ```
   */
  async getAllRows(tables: string | readonly string[], options?: CallOptions): Promise<TableRows> {
    const answer = await this.#engine.call({
      route: "tables.getAllRows",
      params: { tablelist: tableListSegment(tables) },
      options,
    });
    return rows(answer);
  }

  /**
   * The row matching all `keys` (xCAT returns only the first match), or `[]` when none matches.
   * In a table with a `node` column the row carries `node` only when it is one of the keys (see
   * {@link DROPS_THE_CONNECTION}).
   *
   * @example
   * ```ts
   * const [row] = await client.tables.getRows("site", { key: "domain" });
   * ```
   */
  async getRows(
    table: string,
    keys: Readonly<Record<string, string>>,
    attrs?: readonly string[],
    options?: CallOptions,
  ): Promise<TableRow[]> {
    const columns = tableSchema(table)?.columns;
    if (attrs === undefined && columns?.includes(DROPS_THE_CONNECTION)) {
      return this.getRowsAttrs(table, keys, columns, options);
    }
    if (attrs !== undefined) return this.getRowsAttrs(table, keys, attrs, options);
    const answer = await this.#engine.call({
      route: "tables.getRows",
      params: { tablelist: tableListSegment(table), keys: keysSegment(keys) },
      options,
      noRowsOk: true,
    });
    return rows(answer)[table] ?? [];
  }

  /**
   * Selected columns of the row matching `keys`, or `[]`. The `node` column is taken from `keys`
   * rather than asked for (see {@link DROPS_THE_CONNECTION}).
   *
   * @example
   * ```ts
   * const [row] = await client.tables.getRowsAttrs("routes", { routename: "privnet" }, ["gateway"]);
   * ```
   */
  async getRowsAttrs(
    table: string,
    keys: Readonly<Record<string, string>>,
    attrs: readonly string[],
    options?: CallOptions,
  ): Promise<TableRow[]> {
    const asked = attrs.filter((column) => column !== DROPS_THE_CONNECTION);
    const node = attrs.includes(DROPS_THE_CONNECTION) ? keys[DROPS_THE_CONNECTION] : undefined;
    if (asked.length === 0) {
      throw new Error(
        `tables.getRowsAttrs: cannot read only the 'node' column of ${table}: xcatd drops the connection ` +
          "when a keyed row read returns it; read other columns, or the whole table with getAllRows",
      );
    }
    const answer = await this.#engine.call({
      route: "tables.getRowsAttrs",
      params: {
        tablelist: tableListSegment(table),
        keys: keysSegment(keys),
        attrs: attributeListSegment(asked, "column name"),
      },
      options,
      noRowsOk: true,
    });
    const found = rows(answer)[table] ?? [];
    return node === undefined ? found : found.map((row) => ({ [DROPS_THE_CONNECTION]: node, ...row }));
  }

  /**
   * Updates every row matching `keys`, or inserts one from keys and values when none matches.
   * The value "NULL" stores an SQL NULL.
   *
   * @example
   * ```ts
   * await client.tables.setRows("routes", { routename: "privnet" }, { gateway: "10.0.0.254" });
   * ```
   */
  async setRows(
    table: string,
    keys: Readonly<Record<string, string>>,
    values: Readonly<Record<string, string>>,
    options?: CallOptions,
  ): Promise<void> {
    await this.#engine.call({
      route: "tables.setRows",
      params: { tablelist: tableListSegment(table), keys: keysSegment(keys) },
      body: { ...values },
      options,
    });
  }

  /**
   * Deletes every row matching all `keys` (succeeds when none matches).
   *
   * @example
   * ```ts
   * await client.tables.deleteRows("routes", { routename: "privnet" });
   * ```
   */
  async deleteRows(
    table: string,
    keys: Readonly<Record<string, string>>,
    options?: CallOptions,
  ): Promise<void> {
    await this.#engine.call({
      route: "tables.deleteRows",
      params: { tablelist: tableListSegment(table), keys: keysSegment(keys) },
      options,
    });
  }
}
