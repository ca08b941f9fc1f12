/**
 * `xcat:TableRow`: one row of an xCAT table, identified by its key columns, for what the object
 * layer does not cover (routes, passwd, custom tables). Only the declared columns are managed.
 * The id is `<table>:<key>=<value>[,<key>=<value>]` in the table's key-column order.
 */
import type { XcatClient } from "../../client";
import { tableSchema } from "../../contract/schema";
import { attributeChanges, differingAttributes, managedValues, sameAttributes } from "../attributes";
import { ADOPT_ADVICE, type CommonInputs, ResourceConflictError, type ResourceSpec } from "../spec";
import { parseTableRowId, tableRowId } from "../table-row-id";
import {
  booleanProblems,
  connectionProblems,
  failuresOn,
  type InputFailure,
  isPlainObject,
  isUnknown,
  tableKeyProblems,
  tableValueProblems,
} from "../validation";

export interface TableRowInputs extends CommonInputs {
  readonly table: string;
  readonly keys: Record<string, string>;
  readonly values: Record<string, string>;
  readonly adopt: boolean;
}

export interface TableRowOutputs extends TableRowInputs {
  /** The id: `<table>:<key>=<value>,…`. */
  readonly name: string;
}

/** Columns xCAT adds to a keyed row read that are not table data. */
const NOT_DATA = new Set(["xcatdsource"]);

async function readRow(
  client: XcatClient,
  table: string,
  keys: Readonly<Record<string, string>>,
): Promise<Record<string, string> | undefined> {
  const [row] = await client.tables.getRows(table, keys);
  if (!row) return undefined;
  const schema = tableSchema(table);
  return Object.fromEntries(
    Object.entries(row).filter(([column]) => !NOT_DATA.has(column) && !schema?.keys.includes(column)),
  );
}

export const tableRowSpec: ResourceSpec<TableRowInputs, TableRowOutputs> = {
  kind: "xcat:TableRow",

  check(news) {
    const { table, keys } = tableKeyProblems(news.table, news.keys);
    const failures: InputFailure[] = [...failuresOn("table", table), ...failuresOn("keys", keys)];
    const values = news.values;
    if (typeof news.table === "string" && table.length === 0) {
      if (values === undefined || (isPlainObject(values) && Object.keys(values).length === 0)) {
        failures.push({ property: "values", reason: "values must set at least one column" });
      } else {
        failures.push(...failuresOn("values", tableValueProblems(news.table, values)));
      }
    }
    failures.push(
      ...failuresOn("adopt", booleanProblems(news.adopt, "adopt")),
      ...failuresOn("connection", connectionProblems(news.connection)),
    );
    if (failures.length > 0) return { failures };
    return {
      inputs: {
        table: news.table as string,
        keys: news.keys as Record<string, string>,
        values: (isUnknown(values) ? {} : values) as Record<string, string>,
        adopt: news.adopt === true,
        ...(news.connection !== undefined
          ? { connection: news.connection as TableRowInputs["connection"] }
          : {}),
      } as TableRowInputs,
    };
  },

  replaceKeys(olds, news) {
    const replaces: string[] = [];
    if (olds.table !== news.table) replaces.push("table");
    if (!sameAttributes(olds.keys, news.keys)) replaces.push("keys");
    return replaces;
  },

  hasChanges: (olds, news) => !sameAttributes(olds.values, news.values),

  async create(client, inputs) {
    const id = tableRowId(inputs.table, inputs.keys);
    const existing = await readRow(client, inputs.table, inputs.keys);
    if (existing) {
      const differing = differingAttributes(inputs.values, existing);
      if (differing.length > 0 && !inputs.adopt) {
        throw new ResourceConflictError(
          `xcat:TableRow: the row ${id} already exists with different values for ` +
            `${differing.map((column) => `'${column}'`).join(", ")}. Nothing was changed. ${ADOPT_ADVICE}.`,
        );
      }
      if (differing.length > 0) {
        await client.tables.setRows(inputs.table, inputs.keys, attributeChanges({}, inputs.values, existing));
      }
    } else {
      await client.tables.setRows(inputs.table, inputs.keys, inputs.values);
    }
    return { id, outputs: { ...inputs, name: id } };
  },

  async read(client, id, olds) {
    const { table, keys } =
      olds.table && olds.keys ? { table: olds.table, keys: olds.keys } : parseTableRowId(id);
    const row = await readRow(client, table, keys);
    if (!row) return undefined;
    const values = olds.values ? managedValues(Object.keys(olds.values), row) : row;
    const inputs: TableRowInputs = {
      table,
      keys,
      values,
      adopt: olds.adopt ?? false,
      ...(olds.connection ? { connection: olds.connection } : {}),
    };
    return { id, inputs, outputs: { ...inputs, name: id } };
  },

  async update(client, id, olds, news) {
    const changes = attributeChanges(olds.values, news.values);
    if (Object.keys(changes).length > 0) await client.tables.setRows(news.table, news.keys, changes);
    return { ...news, name: id };
  },

  async delete(client, _id, olds) {
    await client.tables.deleteRows(olds.table, olds.keys);
  },
};
