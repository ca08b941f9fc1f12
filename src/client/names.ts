/**
 * Validation and percent-encoding of everything the client puts into a URL path: object names,
 * noderanges, attribute lists, table lists, row keys and keyword segments. A value that could
 * change which resource a request reaches is refused before anything is sent, with an error that
 * names the problem.
 */
import { createXcatError } from "./errors";
import { isSecretKey, REDACTED } from "./redact";

// Characters that would end or re-aim a path segment, or that xcatws decodes twice: a "%" would
// let a name smuggle an encoded "/" past this check.
const PATH_BREAKERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\//, "contains '/', which would change the request path"],
  [/\\/, "contains '\\', which some servers treat as '/'"],
  [/\?/, "contains '?', which would start a query string"],
  [/#/, "contains '#', which would start a URL fragment"],
  [/%/, "contains '%'; pass the plain text, the client does the percent-encoding"],
  [/\s/, "contains whitespace"],
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  [/[\u0000-\u001f\u007f]/, "contains a control character"],
];

function usage(message: string) {
  return createXcatError("XCAT_USAGE", message);
}

function show(value: string): string {
  const shown = value.length > 64 ? `${value.slice(0, 61)}...` : value;
  return JSON.stringify(shown);
}

function checkSegmentText(value: string, what: string): void {
  if (value.length === 0) throw usage(`${what} is empty`);
  for (const [pattern, problem] of PATH_BREAKERS) {
    if (pattern.test(value)) throw usage(`${what} ${show(value)} ${problem}`);
  }
  if (value.includes(".."))
    throw usage(`${what} ${show(value)} contains '..', which could change the request path`);
}

/**
 * Percent-encodes one validated path segment. `,` `=` `:` and `@` stay literal: they are legal in
 * a path segment, they are xCAT's list and key syntax, and xcatws matches the decoded path anyway.
 *
 * @example
 * ```ts
 * encodeSegment("n[1-3],n5"); // "n%5B1-3%5D,n5"
 * ```
 */
export function encodeSegment(value: string): string {
  return encodeURIComponent(value)
    .replace(/%2C/gi, ",")
    .replace(/%3D/gi, "=")
    .replace(/%3A/gi, ":")
    .replace(/%40/gi, "@");
}

/**
 * Validates one object name (node, osimage, network, policy priority, group) and returns it
 * encoded. Lists and ranges are not single names: use the `getMany` methods for those.
 *
 * @example
 * ```ts
 * objectSegment("compute01", "node name"); // "compute01"
 * objectSegment("a/b", "node name"); // throws XcatUsageError: node name "a/b" contains '/', ...
 * ```
 */
export function objectSegment(value: string, what: string): string {
  if (typeof value !== "string") throw usage(`${what} must be a string`);
  checkSegmentText(value, what);
  if (value.includes(",")) {
    throw usage(
      `${what} ${show(value)} contains ',', which would name several objects; use getMany() for a list`,
    );
  }
  if (value === "ALLRESOURCES") {
    throw usage(
      `${what} ALLRESOURCES is xCAT's keyword for every object; use list() or getMany("ALLRESOURCES")`,
    );
  }
  return encodeSegment(value);
}

/**
 * A noderange (`n01`, `n[01-10]`, `rack1,n05`, a group name, ...) or a list of names, validated and
 * encoded. A list is joined with commas; each element must itself be a valid range element.
 *
 * @example
 * ```ts
 * noderangeSegment(["n01", "n02"]); // "n01,n02"
 * ```
 */
export function noderangeSegment(value: string | readonly string[], what = "noderange"): string {
  const text = typeof value === "string" ? value : joinList(value, what);
  checkSegmentText(text, what);
  if (text.split(",").some((part) => part.length === 0))
    throw usage(`${what} ${show(text)} has an empty element`);
  return encodeSegment(text);
}

/** A list of object names for non-node types (policy `1,2`), validated and encoded. */
export function nameListSegment(names: string | readonly string[], what: string): string {
  return noderangeSegment(names, what);
}

const ATTRIBUTE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
const TABLE_NAME = /^[A-Za-z0-9_]+$/;
const KEYWORD = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/**
 * A list of attribute (column) names, validated and joined with `,`. `table.attr` is allowed, as
 * the table endpoints use it.
 *
 * @example
 * ```ts
 * attributeListSegment(["groups", "mgt"]); // "groups,mgt"
 * ```
 */
export function attributeListSegment(names: readonly string[], what = "attribute name"): string {
  if (!Array.isArray(names) || names.length === 0) throw usage(`at least one ${what} is required`);
  for (const name of names) {
    if (typeof name !== "string" || !ATTRIBUTE_NAME.test(name) || name.includes("..")) {
      throw usage(
        `${what} ${show(String(name))} is not a valid attribute name (letters, digits, '_', '.', '-')`,
      );
    }
  }
  return encodeSegment(names.join(","));
}

/**
 * A list of table names, validated and joined with `,`.
 *
 * @example
 * ```ts
 * tableListSegment(["nodetype", "noderes"]); // "nodetype,noderes"
 * ```
 */
export function tableListSegment(tables: string | readonly string[]): string {
  const list = typeof tables === "string" ? [tables] : tables;
  if (list.length === 0) throw usage("at least one table name is required");
  for (const table of list) {
    if (typeof table !== "string" || !TABLE_NAME.test(table)) {
      throw usage(`table name ${show(String(table))} is not valid (letters, digits and '_' only)`);
    }
  }
  return list.join(",");
}

/**
 * Row keys of a non-node table as `name=value` pairs, validated and encoded. Values of secret
 * columns are never quoted in errors.
 *
 * @example
 * ```ts
 * keysSegment({ routename: "privnet" }); // "routename=privnet"
 * ```
 */
export function keysSegment(keys: Readonly<Record<string, string>>): string {
  const entries = Object.entries(keys ?? {});
  if (entries.length === 0) throw usage("at least one row key (column=value) is required");
  const parts: string[] = [];
  for (const [column, value] of entries) {
    if (!TABLE_NAME.test(column))
      throw usage(`row key column ${show(column)} is not valid (letters, digits and '_' only)`);
    if (typeof value !== "string") throw usage(`row key '${column}' must have a string value`);
    const label = `value of row key '${column}'`;
    try {
      checkSegmentText(value, label);
      if (value.includes(","))
        throw usage(`${label} ${show(value)} contains ',', which xCAT reads as the next key`);
    } catch (error) {
      if (isSecretKey(column)) throw usage(`${label} (${REDACTED}) cannot be sent in a URL path`);
      throw error;
    }
    parts.push(`${column}=${value}`);
  }
  return encodeSegment(parts.join(","));
}

/**
 * A keyword path segment (sp setting, vitals or inventory item, SLP service type), or several of
 * them joined with `separator` (vitals and inventory lists are split on ';' by xcatws).
 *
 * @example
 * ```ts
 * keywordSegment(["temp", "fanspeed"], "vitals item", ";"); // "temp%3Bfanspeed"
 * ```
 */
export function keywordSegment(value: string | readonly string[], what: string, separator = ","): string {
  const list = typeof value === "string" ? [value] : value;
  if (list.length === 0) throw usage(`at least one ${what} is required`);
  for (const item of list) {
    if (typeof item !== "string" || !KEYWORD.test(item) || item.includes("..")) {
      throw usage(`${what} ${show(String(item))} is not a valid keyword (letters, digits, '_', '.', '-')`);
    }
  }
  return encodeSegment(list.join(separator));
}

function joinList(values: readonly string[], what: string): string {
  if (!Array.isArray(values) || values.length === 0) throw usage(`${what} list is empty`);
  for (const value of values) {
    if (typeof value !== "string") throw usage(`${what} list holds a non-string element`);
    checkSegmentText(value, `${what} element`);
    if (value.includes(","))
      throw usage(`${what} element ${show(value)} contains ','; pass list elements separately`);
  }
  return values.join(",");
}
