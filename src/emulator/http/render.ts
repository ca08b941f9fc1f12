/**
 * Output formatting of xcatws.cgi (xcat-behavior.md §2.1, §2.4, §8.4): Perl JSON with
 * `indent(1)` for pretty (3 spaces, no spaces around ':'), the trailing newline the CGI adds,
 * xcoll grouping, and Data::Dumper text for debug blocks.
 */

/** Perl truthiness of a parameter value: undefined, "" and "0" are false. */
export function perlTrue(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return false;
  if (Array.isArray(value)) return value.length > 0;
  const s = String(value);
  return s !== "" && s !== "0";
}

function prettyValue(value: unknown, depth: number): string {
  const pad = "   ".repeat(depth + 1);
  const close = "   ".repeat(depth);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => pad + prettyValue(v, depth + 1)).join(",\n")}\n${close}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return "{}";
    return `{\n${entries.map(([k, v]) => `${pad}${JSON.stringify(k)}:${prettyValue(v, depth + 1)}`).join(",\n")}\n${close}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * The body text for a JSON value: compact or pretty, followed by the newline the CGI prints
 * after any non-empty output (pretty output already ends with one, hence the blank last line).
 */
export function renderJson(value: unknown, pretty: boolean): string {
  return pretty ? `${prettyValue(value, 0)}\n\n` : `${JSON.stringify(value) ?? "null"}\n`;
}

function signature(value: unknown): string | undefined {
  if (Array.isArray(value)) return [...value.map(String)].sort().join("");
  if (value !== null && typeof value === "object") {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}${typeof v === "string" ? v : JSON.stringify(v)}`)
      .sort()
      .join("");
  }
  return undefined;
}

/**
 * xcoll=1: keys whose values are equal objects or arrays merge into one `"a,b"` key; scalar
 * values are dropped; arrays pass unchanged (§2.4). Names are joined in key order, which the real
 * service leaves to Perl's hash order.
 */
export function xcoll(value: unknown): unknown {
  if (Array.isArray(value) || value === null || typeof value !== "object") return value;
  const groups = new Map<string, { names: string[]; value: unknown }>();
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const sig = signature(v);
    if (sig === undefined) continue;
    const group = groups.get(sig);
    if (group) {
      group.names.push(key);
      group.value = v;
    } else {
      groups.set(sig, { names: [key], value: v });
    }
  }
  if (groups.size === 0) return value;
  const out: Record<string, unknown> = {};
  for (const group of groups.values()) out[group.names.join(",")] = group.value;
  return out;
}

function dumpValue(value: unknown, indent: number): string {
  const pad = " ".repeat(indent + 2);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => pad + dumpValue(v, indent + 2)).join(",\n")}\n${" ".repeat(indent)}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    if (entries.length === 0) return "{}";
    return `{\n${entries
      .map(([k, v]) => {
        const prefix = `${pad}'${escapePerl(k)}' => `;
        return prefix + dumpValue(v, prefix.length - 2);
      })
      .join(",\n")}\n${" ".repeat(indent)}}`;
  }
  if (typeof value === "number") return String(value);
  if (value === null || value === undefined) return "undef";
  return `'${escapePerl(String(value))}'`;
}

function escapePerl(text: string): string {
  return text.replaceAll("\\", "\\\\").replaceAll("'", "\\'");
}

/** `$VAR1 = ...;` as Data::Dumper prints it with its default indentation. */
export function dataDumper(value: unknown): string {
  return `$VAR1 = ${dumpValue(value, 8)};\n`;
}

/** Escapes text for the XML of debug blocks. */
export function xmlEscape(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}
