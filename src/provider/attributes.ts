/**
 * Pure helpers for xCAT attribute maps as the resources manage them: which attributes are
 * secrets, what an update must send, and how managed values compare with what xCAT reports.
 */

/**
 * Parts of a name that make an attribute password-like. xCAT's own secrets are bmcpassword,
 * password, passwd.*, iscsipassword, snmppassword, domainadminpassword and the PDU's SNMPv3
 * authkey/privkey (pdu.authkey, pdu.privkey in Schema.pm); the loose parts ("pas" + "w", "psw",
 * "pwd", a trailing "pw", "secret", "token") also catch the misspellings a user makes of them
 * (bmcpasword, bmcpaswd, bmcpswd, bmcpw), so a misspelled secret is never printed or stored in
 * plain text either. A false positive only hides a value; a false negative would leak one.
 */
const SECRET_NAME = /pass|pasw|psw|pwd|pw$|secret|token|authkey|privkey/i;

/**
 * Whether an attribute is password-like (see SECRET_NAME): its value goes to `secretAttributes`,
 * is encrypted in the state and never appears in a message or a log.
 */
export function isSecretAttribute(name: string): boolean {
  return SECRET_NAME.test(name);
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
