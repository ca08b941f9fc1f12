/**
 * The shapes of xCAT REST bodies as zod schemas (../shared/xcat-rest-api.md "Response shapes",
 * xcat-behavior.md §2-3). The client parses responses with them; the emulator's tests check what
 * it sends against them, so the two cannot drift apart silently.
 */
import { z } from "zod";

/**
 * An error body. The web layer sends `error` as one string, xCAT commands as an array of
 * messages; `errorcode` is a string ("1", "2") except the numeric 3 of a few web-layer errors.
 */
export const ErrorBody = z.object({
  error: z.union([z.string(), z.array(z.string())]),
  errorcode: z.union([z.string(), z.number()]),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** S1: object name to attribute map, as lsdef-backed GETs return it. */
export const ObjectAttributeMaps = z.record(z.string(), z.record(z.string(), z.string()));
export type ObjectAttributeMaps = z.infer<typeof ObjectAttributeMaps>;

/** S2: object (node) name to an array of messages. */
export const MessagesByName = z.record(z.string(), z.array(z.string()));
export type MessagesByName = z.infer<typeof MessagesByName>;

/** S3: a flat array of strings (name lists, progress messages). */
export const StringList = z.array(z.string());
export type StringList = z.infer<typeof StringList>;

/** `{ <node>: { <key>: <value> } }` answers of action endpoints (power, nodestat, nextboot, ...). */
export const NodeActionResults = z.record(
  z.string(),
  z.record(z.string(), z.union([z.string(), z.array(z.string())])),
);
export type NodeActionResults = z.infer<typeof NodeActionResults>;

/** POST /tokens. `expire` is "Y-M-D h:m:s" without zero padding, or "never". */
export const TokenResponse = z.object({
  token: z.object({ id: z.string().min(1), expire: z.string() }),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

/** Table GETs: table name to rows; node-table rows carry `name`, keyed rows may carry `xcatdsource`. */
export const TableRowsResponse = z.record(z.string(), z.array(z.record(z.string(), z.string())));
export type TableRowsResponse = z.infer<typeof TableRowsResponse>;

/** The one Content-Type the real service sends (xcat-behavior.md §9.8). */
export const XCAT_CONTENT_TYPE = "application/json; charset=ISO-8859-1";

/** Query parameters and body keys the web layer consumes itself (xcat-behavior.md §1.1). */
export const GENERAL_PARAMS = ["userName", "userPW", "pretty", "debug", "xcoll", "ver"] as const;

/** Resource groups listed by GET on the service root, in xCAT's order (xcat-behavior.md §1.1). */
export const RESOURCE_GROUPS = [
  "globalconf",
  "groups",
  "localres",
  "networks",
  "nodes",
  "osimages",
  "policy",
  "services",
  "tables",
  "templates",
  "tokens",
] as const;
