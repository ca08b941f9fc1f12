/**
 * Pure input validation for the resources' `check` (no I/O). Each validator returns the reasons
 * a value is unacceptable, or none; the resource specs turn them into Pulumi CheckFailures on the
 * property they belong to.
 *
 * During `pulumi preview`, values that depend on other resources are not known yet and arrive as
 * Pulumi's unknown sentinel; every validator accepts it.
 */
import { isKnownAttribute, type ObjectType, objectAttributes, tableSchema } from "../contract/schema";
import { isSecretAttribute } from "./attributes";
import { editDistance } from "./edit-distance";

/** The string the Node dynamic-provider host puts where a value is unknown during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export const isUnknown = (value: unknown): boolean => value === UNKNOWN;

/** A failure on one input property, as Pulumi's CheckFailure. */
export interface InputFailure {
  readonly property: string;
  readonly reason: string;
}

/** The failures of one property, one per problem. */
export function failuresOn(property: string, problems: readonly string[]): InputFailure[] {
  return problems.map((reason) => ({ property, reason }));
}

/** Characters that would change the REST path or the noderange if they were part of a name. */
const FORBIDDEN_NAME_PARTS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\//, "'/'"],
  [/\.\./, "'..'"],
  [/,/, "','"],
  [/\s/, "whitespace"],
  [/\?/, "'?'"],
  [/#/, "'#'"],
  [/%/, "'%'"],
];

/**
 * Problems with an object name (node, group, image, network, site attribute, table key value).
 * The characters refused are those that would change the request path or turn one name into a
 * noderange of several.
 */
export function nameProblems(value: unknown, what: string): string[] {
  if (isUnknown(value)) return [];
  if (typeof value !== "string") return [`${what} must be a string, got ${describe(value)}`];
  if (value.length === 0) return [`${what} must not be empty`];
  const found = FORBIDDEN_NAME_PARTS.filter(([pattern]) => pattern.test(value)).map(([, label]) => label);
  return found.length > 0 ? [`${what} '${value}' must not contain ${found.join(", ")}`] : [];
}

/** Problems with a node name: xCAT accepts letters, digits, '-' and '_' (DBobjectdefs.pm). */
export function nodeNameProblems(value: unknown, what: string): string[] {
  const basic = nameProblems(value, what);
  if (basic.length > 0 || isUnknown(value) || typeof value !== "string") return basic;
  return /^[A-Za-z0-9_-]+$/.test(value)
    ? []
    : [
        `${what} '${value}' may contain only letters, digits, '-' and '_' (xCAT refuses '.' and other characters)`,
      ];
}

/** Problems with a string input. */
export function stringProblems(
  value: unknown,
  what: string,
  options: { allowEmpty?: boolean } = {},
): string[] {
  if (isUnknown(value)) return [];
  if (typeof value !== "string") return [`${what} must be a string, got ${describe(value)}`];
  if (!options.allowEmpty && value.length === 0) return [`${what} must not be empty`];
  return [];
}

/**
 * Problems with a map of xCAT attribute names to string values for an object type: not an
 * object, values that are not strings, and names xCAT does not know for the type (with the
 * closest known name when there is one), plus names listed in `reserved`.
 */
export function attributeMapProblems(
  value: unknown,
  what: string,
  objectType: ObjectType,
  reserved: Readonly<Record<string, string>> = {},
): string[] {
  if (value === undefined || isUnknown(value)) return [];
  if (!isPlainObject(value))
    return [`${what} must be an object of attribute name to string, got ${describe(value)}`];
  const problems: string[] = [];
  for (const [name, attributeValue] of Object.entries(value)) {
    const reservedReason = reserved[name];
    if (reservedReason !== undefined) {
      problems.push(`${what}: '${name}' ${reservedReason}`);
      continue;
    }
    if (!isKnownAttribute(objectType, name)) {
      const hint = closestAttribute(objectType, name);
      problems.push(
        `${what}: '${name}' is not a ${objectType} attribute in xCAT's schema${hint ? ` (did you mean '${hint}'?)` : ""}`,
      );
    }
    if (!isUnknown(attributeValue) && typeof attributeValue !== "string") {
      // A password's value is never printed, even a wrong one (it may be the password).
      const got = isSecretAttribute(name) ? kindOf(attributeValue) : describe(attributeValue);
      problems.push(`${what}: the value of '${name}' must be a string, got ${got}`);
    }
  }
  return problems;
}

/** Problems with a dotted IPv4 address. */
export function ipv4Problems(value: unknown, what: string): string[] {
  if (isUnknown(value)) return [];
  if (typeof value !== "string" || parseIpv4(value) === undefined) {
    return [`${what} must be an IPv4 address like 10.0.0.0, got ${describe(value)}`];
  }
  return [];
}

/** Problems with a dotted IPv4 netmask (contiguous ones, then zeros). */
export function netmaskProblems(value: unknown, what: string): string[] {
  if (isUnknown(value)) return [];
  const bits = typeof value === "string" ? parseIpv4(value) : undefined;
  if (bits === undefined) return [`${what} must be a netmask like 255.255.0.0, got ${describe(value)}`];
  const inverted = ~bits >>> 0;
  // A valid mask's inverse is 2^k - 1: all ones at the bottom.
  if ((inverted & (inverted + 1)) !== 0) return [`${what} '${String(value)}' is not a contiguous netmask`];
  return [];
}

/** Problems with an IPv4 network address given its mask: host bits must be zero. */
export function networkAddressProblems(net: unknown, mask: unknown, what: string): string[] {
  if (typeof net !== "string" || typeof mask !== "string") return [];
  const netBits = parseIpv4(net);
  const maskBits = parseIpv4(mask);
  if (netBits === undefined || maskBits === undefined) return [];
  return (netBits & ~maskBits) >>> 0 === 0 ? [] : [`${what} ${net} has host bits set for mask ${mask}`];
}

/** Problems with a policy priority: xCAT sorts policies numerically by it ("6", "4.5"). */
export function priorityProblems(value: unknown, what: string): string[] {
  if (isUnknown(value)) return [];
  if (typeof value !== "string" || !/^\d+(\.\d+)?$/.test(value)) {
    return [`${what} must be a number written as a string, like "6" or "4.5", got ${describe(value)}`];
  }
  return [];
}

/** Problems with a positive whole number (VM sizes). */
export function positiveIntegerProblems(value: unknown, what: string): string[] {
  if (isUnknown(value)) return [];
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    return [`${what} must be a positive whole number, got ${describe(value)}`];
  }
  return [];
}

/** Problems with a boolean flag. */
export function booleanProblems(value: unknown, what: string): string[] {
  if (value === undefined || isUnknown(value) || typeof value === "boolean") return [];
  return [`${what} must be true or false, got ${describe(value)}`];
}

/**
 * Problems with a table row identity: the table must exist and `keys` must name exactly its key
 * columns, each with a non-empty value.
 */
export function tableKeyProblems(table: unknown, keys: unknown): { table: string[]; keys: string[] } {
  if (isUnknown(table)) return { table: [], keys: [] };
  if (typeof table !== "string" || table.length === 0) {
    return { table: [`table must be the name of an xCAT table, got ${describe(table)}`], keys: [] };
  }
  const schema = tableSchema(table);
  if (!schema) return { table: [`'${table}' is not an xCAT table`], keys: [] };
  if (isUnknown(keys)) return { table: [], keys: [] };
  if (!isPlainObject(keys)) {
    return { table: [], keys: [`keys must be an object of key column to value, got ${describe(keys)}`] };
  }
  const given = Object.keys(keys);
  const missing = schema.keys.filter((key) => !given.includes(key));
  const extra = given.filter((key) => !schema.keys.includes(key));
  const problems: string[] = [];
  if (missing.length > 0 || extra.length > 0) {
    problems.push(
      `keys must be exactly the key columns of table '${table}' (${schema.keys.join(", ")})` +
        (missing.length > 0 ? `; missing ${missing.join(", ")}` : "") +
        (extra.length > 0 ? `; not key columns: ${extra.join(", ")}` : ""),
    );
  }
  for (const [key, value] of Object.entries(keys)) {
    if (!schema.keys.includes(key)) continue;
    problems.push(...nameProblems(value, `keys.${key}`));
  }
  return { table: [], keys: problems };
}

/** Problems with the values of a table row: known columns of the table, string values. */
export function tableValueProblems(table: string, values: unknown): string[] {
  const schema = tableSchema(table);
  if (!schema || values === undefined || isUnknown(values)) return [];
  if (!isPlainObject(values))
    return [`values must be an object of column to string, got ${describe(values)}`];
  const problems: string[] = [];
  for (const [column, value] of Object.entries(values)) {
    if (!schema.columns.includes(column)) {
      problems.push(
        `values: '${column}' is not a column of table '${table}' (columns: ${schema.columns.join(", ")})`,
      );
    } else if (schema.keys.includes(column)) {
      problems.push(`values: '${column}' is a key column of table '${table}'; give it in keys`);
    }
    if (!isUnknown(value) && typeof value !== "string") {
      problems.push(`values: the value of '${column}' must be a string, got ${describe(value)}`);
    }
  }
  return problems;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A short description of a bad value for messages; strings are quoted and cut. */
export function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return value.length > 40 ? `'${value.slice(0, 40)}…'` : `'${value}'`;
  if (typeof value === "object") return "an object";
  return `${typeof value} ${String(value)}`;
}

/** What kind of value this is, without the value: for messages about secrets. */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/** A dotted IPv4 address as a 32-bit number, or undefined when it is not one. */
export function parseIpv4(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let bits = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    bits = (bits << 8) | octet;
  }
  return bits >>> 0;
}

/** The known attribute closest to a misspelt one (edit distance at most 2), for hints. */
function closestAttribute(objectType: ObjectType, name: string): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of objectAttributes(objectType).keys()) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase(), bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Problems with a `connection` input. */
export function connectionProblems(value: unknown): string[] {
  if (value === undefined || isUnknown(value)) return [];
  if (!isPlainObject(value)) return [`connection must be an object with at least a url, got ${typeof value}`];
  const problems = stringProblems(value.url, "connection.url");
  for (const key of ["username", "caCert"] as const) {
    if (value[key] !== undefined) problems.push(...stringProblems(value[key], `connection.${key}`));
  }
  for (const key of ["password", "token"] as const) {
    const secret = value[key];
    if (secret === undefined || isUnknown(secret)) continue;
    if (typeof secret !== "string")
      problems.push(`connection.${key} must be a string, got ${kindOf(secret)}`);
    else if (secret.length === 0) problems.push(`connection.${key} must not be empty`);
  }
  problems.push(...booleanProblems(value.insecure, "connection.insecure"));
  const backend = value.backend;
  if (backend !== undefined && !isUnknown(backend) && backend !== "xcat" && backend !== "confluent")
    problems.push(`connection.backend must be "xcat" or "confluent", got ${describe(backend)}`);
  const known = new Set(["url", "username", "password", "token", "caCert", "insecure", "backend"]);
  for (const key of Object.keys(value)) {
    if (!known.has(key))
      problems.push(`connection: unknown setting '${key}' (known: ${[...known].join(", ")})`);
  }
  return problems;
}
