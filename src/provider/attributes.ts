/**
 * Pure helpers for xCAT attribute maps as the resources manage them: which attributes are
 * secrets, what an update must send, and how managed values compare with what xCAT reports.
 */
import { OBJECT_TYPES, objectAttributes, tableNames, tableSchema } from "../contract/schema";
import { editDistance } from "./edit-distance";

/**
 * Name parts that mark a password, case-insensitive: "pass" (password, passwd, passw…), "pasw"
 * (pasword), "psw", "pwd", a trailing "pw" (bmcpw), "secret", "token", and the PDU's SNMPv3
 * "authkey"/"privkey" (pdu.authkey, pdu.privkey in Schema.pm). Every xCAT attribute or column containing "pass" holds a password
 * (bmcpassword, passwd.HMC, iscsipassword, snmppassword, vidpassword, sshpassword…), so the wider
 * part costs no ordinary attribute its readability.
 */
const PASSWORD_PARTS = /pass|pasw|psw|pwd|pw$|secret|token|authkey|privkey/i;

let knownNames: { all: ReadonlySet<string>; passwords: readonly string[] } | undefined;

/**
 * Every attribute and column name xCAT's schema knows (all object types and tables), and among
 * them the password ones, lower-cased, for the misspelling rule. Built on first use.
 */
function schemaNames(): { all: ReadonlySet<string>; passwords: readonly string[] } {
  if (!knownNames) {
    const all = new Set([
      ...OBJECT_TYPES.flatMap((type) => [...objectAttributes(type).keys()]),
      ...tableNames().flatMap((table) => tableSchema(table)?.columns ?? []),
    ]);
    const passwords = [...all].filter((name) => PASSWORD_PARTS.test(name)).map((name) => name.toLowerCase());
    knownNames = { all, passwords };
  }
  return knownNames;
}

/**
 * Whether an attribute holds a password, so that its value goes to the secret inputs (encrypted
 * in the state, [secret] in diffs) and is never printed, not even in an error about the name.
 *
 * The rule covers misspellings, since a misspelt password attribute still carries a password:
 * - a name containing a password part (see PASSWORD_PARTS), or
 * - a name xCAT does not know that is within edit distance 2 of one of xCAT's password
 *   attributes ("bmcpsasword", "iscsipasswrod", "bmcpasswdr"). Distance 2 is the did-you-mean
 *   distance of the validation, so every misspelling that gets a password hint is a secret; a name
 *   xCAT knows is never taken for a misspelling (no known ordinary attribute is that close anyway).
 * A false positive only hides a value; a false negative prints a password, so the rule errs wide.
 */
export function isSecretAttribute(name: string): boolean {
  if (PASSWORD_PARTS.test(name)) return true;
  const { all, passwords } = schemaNames();
  if (all.has(name)) return false;
  const lower = name.toLowerCase();
  return passwords.some((password) => editDistance(lower, password, 3) <= 2);
}

/** Splits a map into its secret and its ordinary attributes. */
export function splitSecretAttributes(attributes: Readonly<Record<string, string>>): {
  plain: Record<string, string>;
  secret: Record<string, string>;
} {
  const plain: Record<string, string> = {};
  const secret: Record<string, string> = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (isSecretAttribute(name)) secret[name] = value;
    else plain[name] = value;
  }
  return { plain, secret };
}

/** What xCAT reports for an object, without secrets: the `allAttributes` output. */
export function publicAttributes(reported: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(reported).filter(([name]) => !isSecretAttribute(name)));
}

/**
 * The attributes to send to make `current` into `desired`: changed and new values, and "" for
 * attributes managed before (`previous`) but no longer declared, which clears them in xCAT.
 */
export function attributeChanges(
  previous: Readonly<Record<string, string>>,
  desired: Readonly<Record<string, string>>,
  current: Readonly<Record<string, string>> = previous,
): Record<string, string> {
  const changes: Record<string, string> = {};
  for (const [name, value] of Object.entries(desired)) {
    if (current[name] !== value) changes[name] = value;
  }
  for (const name of Object.keys(previous)) {
    if (!(name in desired) && (current[name] ?? "") !== "") changes[name] = "";
  }
  return changes;
}

/** Names of the desired attributes whose reported value differs (unset counts as ""). */
export function differingAttributes(
  desired: Readonly<Record<string, string>>,
  reported: Readonly<Record<string, string>>,
): string[] {
  return Object.keys(desired).filter((name) => (reported[name] ?? "") !== desired[name]);
}

/**
 * What adopting an existing object changes on it, one `current → new` text per differing
 * attribute, for a reviewer. Values of secret attributes (given in `secretNames` or named like a
 * password) are shown as `[secret]`; an attribute xCAT does not set shows as `(unset)`.
 *
 * @example
 * adoptionChanges({ ip: "10.0.0.99" }, { ip: "10.0.0.5" }, []) // { ip: "10.0.0.5 → 10.0.0.99" }
 */
export function adoptionChanges(
  desired: Readonly<Record<string, string>>,
  reported: Readonly<Record<string, string>>,
  secretNames: Iterable<string>,
): Record<string, string> {
  const secrets = new Set(secretNames);
  const changes: Record<string, string> = {};
  for (const name of differingAttributes(desired, reported)) {
    const shown = (value: string) =>
      secrets.has(name) || isSecretAttribute(name) ? "[secret]" : value === "" ? "(unset)" : value;
    changes[name] = `${shown(reported[name] ?? "")} → ${shown(desired[name] ?? "")}`;
  }
  return changes;
}

/** The reported values of the managed attributes; an attribute xCAT does not report is "". */
export function managedValues(
  names: Iterable<string>,
  reported: Readonly<Record<string, string>>,
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of names) values[name] = reported[name] ?? "";
  return values;
}

/** Whether two attribute maps hold the same names and values. */
export function sameAttributes(
  a: Readonly<Record<string, string>>,
  b: Readonly<Record<string, string>>,
): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => b[key] === a[key]);
}
