/**
 * Every oddity of the real xcatws that the client compensates for, in one file
 * (../shared/xcat-behavior.md §2-3, §8 and §9; section 9 wins). Nothing else in the client
 * inspects xCAT's message texts.
 */
import {
  ALREADY_EXISTS_PATTERNS,
  AUTHENTICATION_FAILURE,
  EMPTY_LIST_PREFIX,
  NO_OBJECT_DEFINITIONS_TO_DISPLAY,
  NO_TABLE_ROWS_MATCHED,
  NOT_FOUND_PREFIX,
} from "../contract/messages";
import { XcatErrorCode } from "./errors";

/**
 * Response bytes as text. xcatws labels every body `charset=ISO-8859-1`, but Perl's JSON writes
 * wide characters as UTF-8 anyway, so valid UTF-8 is read as UTF-8 and anything else as Latin-1.
 *
 * @example
 * ```ts
 * decodeBody(new TextEncoder().encode('["n1"]')); // '["n1"]'
 * ```
 */
export function decodeBody(bytes: Uint8Array): string {
  // Decoders are made per call: the client keeps no module-level objects (see pulumi-notes 1.2).
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("latin1").decode(bytes);
  }
}

/**
 * Splits `debug=1` output into the HTML `<p>DEBUG: ...</p>` blocks xcatws puts before the JSON and
 * the JSON itself. The blocks contain passwords and tokens: redact them before showing them.
 *
 * @example
 * ```ts
 * splitDebugOutput('<p>DEBUG: x\n</p>\n["n1"]\n'); // { debug: ["DEBUG: x"], json: '["n1"]' }
 * ```
 */
export function splitDebugOutput(text: string): { debug: string[]; json: string } {
  const debug: string[] = [];
  let rest = text.trimStart();
  while (rest.startsWith("<p>")) {
    const end = rest.indexOf("</p>");
    if (end < 0) break;
    debug.push(rest.slice(3, end).trim());
    rest = rest.slice(end + 4).trimStart();
  }
  return { debug, json: rest.trim() };
}

/** xCAT's error, whichever of its two body shapes it came in. */
export interface ParsedError {
  readonly messages: readonly string[];
  readonly errorcode: string | undefined;
}

/**
 * Reads an error body: the web layer's `{"error":"text","errorcode":"2"}`, a command's
 * `{"error":["a","b"],"errorcode":"1"}`, the numeric errorcode 3, or a non-JSON page (Apache's
 * 500, a proxy's 502) reduced to its first line of text.
 *
 * @example
 * ```ts
 * parseErrorBody('{"error":"Authentication failure","errorcode":"2"}');
 * // { messages: ["Authentication failure"], errorcode: "2" }
 * ```
 */
export function parseErrorBody(text: string): ParsedError {
  const { json } = splitDebugOutput(text);
  if (json.length === 0) return { messages: [], errorcode: undefined };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { messages: [firstTextLine(json)], errorcode: undefined };
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value) && "error" in value) {
    const { error, errorcode } = value as { error: unknown; errorcode?: unknown };
    const messages = Array.isArray(error)
      ? error.filter((m): m is string => typeof m === "string")
      : typeof error === "string"
        ? [error]
        : [];
    const code =
      typeof errorcode === "string" || typeof errorcode === "number" ? String(errorcode) : undefined;
    return { messages, errorcode: code };
  }
  if (Array.isArray(value))
    return { messages: value.filter((m): m is string => typeof m === "string"), errorcode: undefined };
  return { messages: [firstTextLine(json)], errorcode: undefined };
}

function firstTextLine(text: string): string {
  const plain = text
    .replace(/<[^>]*>/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .find((line) => line.length > 0);
  const line = plain ?? "";
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

/**
 * Which error class a non-2xx answer belongs to:
 * - 401, or a 403 whose messages include "Authentication failure" (the table endpoints report a
 *   refused login that way) → auth;
 * - 403 + "Could not find an object named" → not found (xCAT has no 404 for objects; 404 means
 *   an unknown path);
 * - 403 + "0 object definitions have been created or modified." or the network "already exists"
 *   texts → already exists.
 *
 * @example
 * ```ts
 * classifyFailure(403, ["Could not find an object named 'n9' of type 'node'."]); // "XCAT_NOT_FOUND"
 * ```
 */
export function classifyFailure(status: number, messages: readonly string[]): XcatErrorCode {
  if (status === 401) return XcatErrorCode.auth;
  if (status === 403) {
    if (messages.some((m) => m === AUTHENTICATION_FAILURE)) return XcatErrorCode.auth;
    if (messages.some((m) => m.startsWith(NOT_FOUND_PREFIX))) return XcatErrorCode.notFound;
    if (messages.some((m) => ALREADY_EXISTS_PATTERNS.some((p) => p.test(m))))
      return XcatErrorCode.alreadyExists;
  }
  return XcatErrorCode.http;
}

/** True for a 401 "Authentication failure": worth one token renewal before giving up. */
export function isAuthenticationFailure(status: number, messages: readonly string[]): boolean {
  return classifyFailure(status, messages) === XcatErrorCode.auth;
}

/**
 * True when a list GET answered "there are none": the running service's 200
 * `["Could not find any object definitions to display."]`, lsdef's `{"info":"Could not find any
 * object definitions ..."}`, or (per the code) 403 "Could not get objects of type ...".
 *
 * @example
 * ```ts
 * isEmptyListAnswer(200, ["Could not find any object definitions to display."]); // true
 * ```
 */
export function isEmptyListAnswer(status: number, bodyOrMessages: unknown): boolean {
  if (status >= 200 && status < 300) {
    if (Array.isArray(bodyOrMessages)) {
      return bodyOrMessages.length === 1 && bodyOrMessages[0] === NO_OBJECT_DEFINITIONS_TO_DISPLAY;
    }
    if (typeof bodyOrMessages === "object" && bodyOrMessages !== null) {
      const entries = Object.entries(bodyOrMessages);
      return (
        entries.length === 1 &&
        entries[0]?.[0] === "info" &&
        typeof entries[0][1] === "string" &&
        entries[0][1].includes("Could not find any object definitions")
      );
    }
    return false;
  }
  return (
    status === 403 &&
    Array.isArray(bodyOrMessages) &&
    bodyOrMessages.some((m) => typeof m === "string" && m.startsWith(EMPTY_LIST_PREFIX))
  );
}

/** 403 "No table rows matched specified keys or attributes": a keyed row read that found nothing. */
export function isNoRowsMatched(status: number, messages: readonly string[]): boolean {
  return status === 403 && messages.some((m) => m.startsWith(NO_TABLE_ROWS_MATCHED));
}

/**
 * The names in xCAT's "Could not find an object named 'x' of type 't'." messages.
 *
 * @example
 * ```ts
 * missingObjectNames(["Could not find an object named 'n9' of type 'node'."]); // ["n9"]
 * ```
 */
export function missingObjectNames(messages: readonly string[]): string[] {
  const names: string[] = [];
  for (const message of messages) {
    const match = /^Could not find an object named '(.*)' of type '[^']*'\.?$/.exec(message);
    if (match?.[1] !== undefined) names.push(match[1]);
  }
  return names;
}

/**
 * The boot state of one node's result. The service description and docs say `bootstat`, the
 * running service answers `bootstate`; either is accepted.
 *
 * @example
 * ```ts
 * bootstateOf({ bootstat: "install rhels8" }); // "install rhels8"
 * ```
 */
export function bootstateOf(result: Readonly<Record<string, unknown>>): string | undefined {
  const value = result.bootstate ?? result.bootstat;
  return typeof value === "string" ? value : undefined;
}

/**
 * `xcoll=1` merges objects with identical values under one comma-joined key (`"n1,n3"`); this
 * splits them again so callers always see one key per object.
 *
 * @example
 * ```ts
 * expandCollapsedKeys({ "n1,n3": { power: "on" } }); // { n1: {...}, n3: {...} }
 * ```
 */
export function expandCollapsedKeys<T>(value: Readonly<Record<string, T>>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, inner] of Object.entries(value)) {
    for (const name of key.split(",")) if (name.length > 0) out[name] = inner;
  }
  return out;
}

/** Attribute values the client accepts: a string, or a list for xCAT's comma-list attributes. */
export type AttributeValue = string | readonly string[];

/**
 * Attribute values as xcatws must receive them. xcatws drops array values silently except for a
 * few attributes, so lists are joined here with ','. Perl truthiness turns the string "0" into
 * "blank this attribute"; chdef trims leading whitespace from values, so " 0" is sent to store a 0.
 *
 * @example
 * ```ts
 * toWireAttributes({ groups: ["all", "compute"], hidden: "0" }); // { groups: "all,compute", hidden: " 0" }
 * ```
 */
export function toWireAttributes(attrs: Readonly<Record<string, AttributeValue>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(attrs)) {
    const text = typeof value === "string" ? value : value.join(",");
    out[key] = text === "0" ? " 0" : text;
  }
  return out;
}

/**
 * The body of an object write (chdef/mkdef through xcatws `defhdl`): {@link toWireAttributes},
 * with every clear sent as " ". xcatws up to 2.16.5 drops an attribute whose value is Perl-false
 * (2.16.5:xCAT-server/xCAT-wsapi/xcatws.cgi:2096 `push @args, "$k=$paramhash->{$k}" if
 * $paramhash->{$k};`), so `""` clears nothing there and the request still succeeds; 2.17.0 passes
 * `attr=` (commit 884d9d8a1). " " is true in Perl on every release, and chdef/mkdef read
 * `attr= ` as the empty value (DBobjectdefs.pm processArgs, `/^\s*(.*?)\s*=\s*(\S*.*)$/`,
 * 2.16.5:xCAT-server/lib/xcat/plugins/DBobjectdefs.pm:798, master:811), which clears the
 * attribute as `attr=` does: the same request clears on every release, with chdef's own rules
 * (the table an attribute lives in, site rows removed) and batched like any other write.
 *
 * @example
 * ```ts
 * toObjectWriteBody({ ip: "", hidden: "0" }); // { ip: " ", hidden: " 0" }
 * ```
 */
export function toObjectWriteBody(attrs: Readonly<Record<string, AttributeValue>>): Record<string, string> {
  const out = toWireAttributes(attrs);
  for (const [key, value] of Object.entries(out)) if (value === "") out[key] = CLEAR_ON_EVERY_VERSION;
  return out;
}

/** A value chdef stores as empty and every xcatws passes on (see {@link toObjectWriteBody}). */
export const CLEAR_ON_EVERY_VERSION = " ";

// Attributes that xCAT stores as comma lists and may reorder or extend on read (lsdef prepends
// the xcatdefaults postscripts to a node's own).
const LIST_ATTRIBUTES = new Set(["groups", "members", "postscripts", "postbootscripts"]);

/**
 * Whether an object read back carries the attributes a create sent: used to decide that a create
 * whose answer was lost did happen. Empty values must be absent or empty; list attributes must
 * contain every item sent.
 *
 * @example
 * ```ts
 * attributesMatch({ groups: "all" }, { groups: "all", postscripts: "syslog" }); // true
 * ```
 */
export function attributesMatch(
  sent: Readonly<Record<string, AttributeValue>>,
  read: Readonly<Record<string, string>>,
): boolean {
  for (const [key, value] of Object.entries(sent)) {
    const expected = (typeof value === "string" ? value : value.join(",")).trim();
    const actual = (read[key] ?? "").trim();
    if (expected === actual) continue;
    if (LIST_ATTRIBUTES.has(key)) {
      const have = new Set(actual.split(",").map((s) => s.trim()));
      if (expected.split(",").every((item) => have.has(item.trim()))) continue;
    }
    return false;
  }
  return true;
}

/**
 * A node status value without the trailing space nodestat sometimes leaves (`"ping "`).
 *
 * @example
 * ```ts
 * cleanStatus("ping "); // "ping"
 * ```
 */
export function cleanStatus(value: string): string {
  return value.trim();
}

/** Drops the `xcatdsource` field keyed row reads add (it names the management node). */
export function withoutSource(row: Readonly<Record<string, string>>): Record<string, string> {
  const { xcatdsource: _source, ...rest } = row;
  return rest;
}
