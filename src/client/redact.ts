/**
 * The one place that removes secrets from anything the client shows: error messages, log lines,
 * URLs, headers and bodies. xCAT secrets travel as the `userPW` query parameter or body key, the
 * `X-Auth-Token` header, token ids in POST /tokens answers, and passwords inside `debug=1` output.
 */

export const REDACTED = "[REDACTED]";

// Key names whose values are secrets wherever they appear (query, body, headers).
const SECRET_KEY = /pass(word|wd)|userpw|^token$|token_?id|secret|^authorization$|^cookie$|^x-auth-token$/i;

/**
 * True when a field, query parameter or header of this name carries a secret.
 *
 * @example
 * ```ts
 * isSecretKey("userPW"); // true
 * isSecretKey("groups"); // false
 * ```
 */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/**
 * A URL with secret query values and any user:password part replaced by `[REDACTED]`.
 * Text that is not a URL is returned with `userPW=...`-style pairs redacted.
 *
 * @example
 * ```ts
 * redactUrl("https://mn/xcatws/nodes?userName=root&userPW=cluster");
 * // "https://mn/xcatws/nodes?userName=root&userPW=[REDACTED]"
 * ```
 */
export function redactUrl(url: string): string {
  // Work on the text rather than through URL(), so the result keeps the caller's spelling and
  // relative URLs (paths with a query) work too.
  let out = url.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^/@?#]*)@/i, (_m, scheme: string, userinfo: string) =>
    userinfo.includes(":")
      ? `${scheme}${userinfo.slice(0, userinfo.indexOf(":"))}:${REDACTED}@`
      : `${scheme}${userinfo}@`,
  );
  out = out.replace(/([?&;])([^=&#;]+)=([^&#;]*)/g, (match, sep: string, key: string) =>
    isSecretKey(safeDecode(key)) ? `${sep}${key}=${REDACTED}` : match,
  );
  return out;
}

/**
 * A copy of the headers with secret values replaced.
 *
 * @example
 * ```ts
 * redactHeaders({ "X-Auth-Token": "abc" }); // { "X-Auth-Token": "[REDACTED]" }
 * ```
 */
export function redactHeaders(
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
): Record<string, string | readonly string[] | undefined> {
  const out: Record<string, string | readonly string[] | undefined> = {};
  for (const [key, value] of Object.entries(headers)) {
    out[key] = value !== undefined && isSecretKey(key) ? REDACTED : value;
  }
  return out;
}

/**
 * A deep copy of a JSON-like value with the values of secret-named keys replaced.
 *
 * @example
 * ```ts
 * redactBody({ userName: "root", userPW: "cluster" }); // { userName: "root", userPW: "[REDACTED]" }
 * ```
 */
export function redactBody(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactBody);
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] = isSecretKey(key) && inner !== undefined && inner !== null ? REDACTED : redactBody(inner);
    }
    return out;
  }
  return value;
}

/**
 * Removes secrets from free text: every known secret value, `userPW=...` pairs, JSON string
 * fields with secret names, and the `<password>`/`<tokenid>` elements of xCAT's debug XML.
 *
 * @example
 * ```ts
 * redactText('{"userPW":"cluster"}', ["cluster"]); // '{"userPW":"[REDACTED]"}'
 * ```
 */
export function redactText(text: string, secrets: Iterable<string> = []): string {
  let out = text;
  for (const secret of secrets) {
    // Very short "secrets" would redact ordinary words; xCAT passwords and token ids are longer.
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  out = out.replace(/("([^"\\]*)"\s*:\s*)"((?:[^"\\]|\\.)*)"/g, (match, head: string, key: string) =>
    isSecretKey(key) ? `${head}"${REDACTED}"` : match,
  );
  out = out.replace(/(<(password|tokenid|userPW)>)[^<]*(<\/\2>)/gi, `$1${REDACTED}$3`);
  out = out.replace(
    /\b(\w*(?:userPW|password|passwd)|X-Auth-Token)(\s*[=:]\s*)([^\s&,;'"}]+)/gi,
    (_m, key: string, sep: string) => `${key}${sep}${REDACTED}`,
  );
  return out;
}

/** Redaction bound to one client's known secrets; see {@link createRedactor}. */
export interface Redactor {
  /** Registers another secret value (a newly obtained token). */
  add(secret: string): void;
  text(text: string): string;
  url(url: string): string;
}

/**
 * A redactor that also knows this client's secret values (its password and the tokens it has
 * held), so a secret echoed back in an unexpected place is still hidden.
 *
 * @example
 * ```ts
 * const redactor = createRedactor(["cluster"]);
 * redactor.text("login with cluster rejected"); // "login with [REDACTED] rejected"
 * ```
 */
export function createRedactor(initial: Iterable<string> = []): Redactor {
  const secrets = new Set<string>();
  const add = (secret: string) => {
    if (secret.length > 0) secrets.add(secret);
  };
  for (const secret of initial) add(secret);
  return {
    add,
    text: (text) => redactText(text, secrets),
    url: (url) => redactText(redactUrl(url), secrets),
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
