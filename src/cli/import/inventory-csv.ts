/**
 * The inventory file of an imported NodeSet (`inventory/<set>.csv`): header `node,<attribute>,...`
 * and one row per node, as the NodeSet's `csv` input reads it (src/provider/csv-records.ts,
 * RFC 4180). A node without a value of a column gets a blank cell, which sets nothing.
 */
import type { ImportedNodeSet } from "./node-sets";

/**
 * One field: quoted when it holds a comma, a quote or a line end, or starts or ends with a space
 * (the reader trims unquoted fields), with a quote inside doubled.
 */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) || value !== value.trim() ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The file's text, LF line ends, ending with one. */
export function inventoryCsv(set: Pick<ImportedNodeSet, "columns" | "rows">): string {
  const lines = [["node", ...set.columns].map(csvField).join(",")];
  for (const [node, values] of set.rows)
    lines.push([node, ...set.columns.map((column) => values[column] ?? "")].map(csvField).join(","));
  return `${lines.join("\n")}\n`;
}

/**
 * Where the file goes, relative to the program's folder: `inventory/<set>.csv`, or with several
 * servers in one import `inventory/<server>/<set>.csv` (a set never spans servers, and two servers
 * may both have a rack01).
 */
export function inventoryPath(set: Pick<ImportedNodeSet, "name">, server?: string): string {
  return server === undefined ? `inventory/${set.name}.csv` : `inventory/${server}/${set.name}.csv`;
}
