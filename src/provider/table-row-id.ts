/**
 * The id of an `xcat:TableRow`: `<table>:<key>=<value>[,<key>=<value>]`, keys in the table's
 * key-column order. Its own file because the program side (the class's one-resource-per-row
 * claim) and the provider side (the resource's id) both need it.
 */
import { tableSchema } from "../contract/schema";

/** The row's id, keys in the table's key-column order. */
export function tableRowId(table: string, keys: Readonly<Record<string, string>>): string {
  const order = tableSchema(table)?.keys ?? Object.keys(keys);
  return `${table}:${order.map((key) => `${key}=${keys[key] ?? ""}`).join(",")}`;
}

/** Parses an id made by {@link tableRowId}, for `TableRow.get`. */
export function parseTableRowId(id: string): { table: string; keys: Record<string, string> } {
  const colon = id.indexOf(":");
  const table = id.slice(0, colon);
  const keys: Record<string, string> = {};
  for (const pair of id.slice(colon + 1).split(",")) {
    const equals = pair.indexOf("=");
    if (equals > 0) keys[pair.slice(0, equals)] = pair.slice(equals + 1);
  }
  if (colon <= 0 || Object.keys(keys).length === 0) {
    throw new Error(
      `xcat:TableRow: '${id}' is not a table row id (expected <table>:<key>=<value>[,<key>=<value>])`,
    );
  }
  return { table, keys };
}
