/**
 * /tables (tabutils; xcat-behavior.md §1.2 tables and §5.8). GETs that fail on credentials
 * answer 403 rather than 401 (§3.2): node-row reads with `["Authentication failure"]`, row reads
 * with `No such table: <tables>`.
 */
import {
  AUTHENTICATION_FAILURE,
  KEYS_FOR_SINGLE_TABLE_ONLY,
  NO_NODES_IN_NODERANGE,
  noSuchTable,
  SERVICE_UNAVAILABLE,
  tableNotInUri,
} from "../../contract/messages";
import { empty, type HandlerContext, json, type Output, verifiedNodes } from "../http/context";
import { WebError } from "../http/errors";
import { perlString } from "../http/operands";
import { CommandError } from "../store/errors";

function tableList(ctx: HandlerContext): string[] {
  return (ctx.pathParams.tablelist ?? "").split(",").filter((t) => t !== "");
}

/** `k=v,...` split on ',' then at the first '=', whitespace around '=' trimmed. */
export function parseKeys(text: string): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const pair of text.split(",")) {
    const eq = pair.indexOf("=");
    if (eq < 0) {
      if (pair.trim() !== "") keys[pair.trim()] = "";
      continue;
    }
    keys[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return keys;
}

function nodesOf(ctx: HandlerContext): string[] {
  const noderange = ctx.pathParams.noderange ?? "";
  if (noderange === "ALLNODES") return ctx.store.index.allNodes();
  if (noderange === "") throw new CommandError([NO_NODES_IN_NODERANGE]);
  return verifiedNodes(ctx, noderange);
}

export function getNodeRows(ctx: HandlerContext): Output {
  const tables = tableList(ctx);
  ctx.authorize("getTablesNodesAttribs", {
    noderange: ctx.pathParams.noderange ?? "",
    failure: () => new CommandError([AUTHENTICATION_FAILURE]),
  });
  const attrs = ctx.pathParams.attrs?.split(",").filter((a) => a !== "");
  return json(ctx.store.tables.nodeRows(tables, nodesOf(ctx), attrs), false);
}

export function setNodeRows(ctx: HandlerContext): Output {
  const tables = tableList(ctx);
  const values = new Map<string, Map<string, string>>();
  for (const [table, columns] of ctx.params) {
    if (!tables.includes(table)) throw new WebError(400, tableNotInUri(table));
    const map = new Map<string, string>();
    if (columns && typeof columns === "object" && !Array.isArray(columns)) {
      for (const [c, v] of Object.entries(columns as Record<string, unknown>))
        map.set(c, v === null ? "" : perlString(v));
    }
    values.set(table, map);
  }
  ctx.authorize("setNodesAttribs", { noderange: ctx.pathParams.noderange ?? "" });
  ctx.store.tables.setNodeRows(nodesOf(ctx), values);
  return empty();
}

function rowFailure(tables: readonly string[]) {
  return () => new CommandError([noSuchTable(tables)]);
}

export function getAllRows(ctx: HandlerContext): Output {
  const tables = tableList(ctx);
  ctx.authorize("getTablesAllRowAttribs", { failure: rowFailure(tables) });
  return json(ctx.store.tables.allRows(tables), false);
}

function singleTable(ctx: HandlerContext): string {
  const tables = tableList(ctx);
  if (tables.length > 1) throw new WebError(400, KEYS_FOR_SINGLE_TABLE_ONLY);
  return tables[0] ?? "";
}

export function getRows(ctx: HandlerContext): Output {
  const keysText = ctx.pathParams.keys ?? "";
  if (keysText === "ALLROWS") return getAllRows(ctx);
  const table = singleTable(ctx);
  ctx.authorize("getAttribs", { failure: rowFailure([table]) });
  const attrs = ctx.pathParams.attrs?.split(",").filter((a) => a !== "");
  let row: Record<string, string>;
  try {
    row = ctx.store.tables.firstRow(table, parseKeys(keysText), attrs);
  } catch (error) {
    // tablerowhdl reports any error of an unknown table as "No such table".
    if (error instanceof CommandError && error.messages[0]?.startsWith("No such table"))
      throw rowFailure([table])();
    throw error;
  }
  // tabutils getAttribs answers each column at the top level of its response (tabutils.pm
  // 3073-3082 at master), so a row with a `node` column gives `node => ["n01"]`. xcatd's command
  // log then takes that for its per-node structure and dies on `$node->{name}` ("Can't use
  // string ... as a HASH ref", xcatd cmdlog_collectlog 3499-3509; 2.16.5 3466-3476) before
  // `serverdone`, and xcatws answers 503 (xcatws.cgi sendRequest 3428-3429). Measured on xCAT
  // 2.19: GET /tables/postscripts/rows/node=xcatdefaults answers that every time.
  if (row.node !== undefined && row.node !== "") throw new WebError(503, SERVICE_UNAVAILABLE);
  return json({ [table]: [row] }, false);
}

export function setRows(ctx: HandlerContext): Output {
  const table = singleTable(ctx);
  const values: Record<string, string | null> = {};
  for (const [c, v] of ctx.params) values[c] = v === null ? null : perlString(v);
  ctx.authorize("setAttribs");
  ctx.store.tables.setRows(table, parseKeys(ctx.pathParams.keys ?? ""), values);
  return empty();
}

export function deleteRows(ctx: HandlerContext): Output {
  const table = singleTable(ctx);
  ctx.authorize("delEntries");
  ctx.store.tables.deleteRows(table, parseKeys(ctx.pathParams.keys ?? ""));
  return empty();
}
