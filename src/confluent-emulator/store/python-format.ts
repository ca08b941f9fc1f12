/**
 * Python's str.format() as far as Confluent relies on it. Confluent decides whether an attribute
 * value is an expression by calling `value.format()` with no arguments (messages.py:829 and
 * :851 InputAttributes): a replacement field makes Python raise KeyError or IndexError, which
 * marks an expression; `{{`/`}}` collapse to braces; an unbalanced brace raises ValueError, which
 * nothing catches (a 500 with Python's message). Expressions are then expanded field by field
 * (configmanager.py:1130 _ExpressionFormat).
 */

/** A Python exception Confluent does not handle: answered as a 500 with this message. */
export class PythonError extends Error {}

export type FormatPart = { readonly literal: string } | { readonly field: string; readonly spec: string };

/** Splits a format string like Python's string.Formatter.parse, with Python's error texts. */
export function parseFormat(text: string): FormatPart[] {
  const parts: FormatPart[] = [];
  let literal = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "{") {
      if (text[i + 1] === "{") {
        literal += "{";
        i += 2;
        continue;
      }
      if (i + 1 >= text.length) throw new PythonError("Single '{' encountered in format string");
      // A field runs to the matching close brace (nested braces belong to the format spec).
      let depth = 1;
      let j = i + 1;
      while (j < text.length && depth > 0) {
        if (text[j] === "{") depth++;
        else if (text[j] === "}") depth--;
        if (depth > 0) j++;
      }
      if (depth > 0) throw new PythonError("expected '}' before end of string");
      const body = text.slice(i + 1, j);
      if (literal) parts.push({ literal });
      literal = "";
      // The field name ends at the first ':' or '!', brackets or not (which is why Confluent
      // glues `]`-holding specs back onto the name: configmanager.py:1163 format_field).
      let k = 0;
      while (k < body.length && body[k] !== ":" && body[k] !== "!") k++;
      const field = body.slice(0, k);
      let spec = "";
      if (body[k] === "!") {
        const colon = body.indexOf(":", k);
        spec = colon >= 0 ? body.slice(colon + 1) : "";
      } else if (body[k] === ":") {
        spec = body.slice(k + 1);
      }
      parts.push({ field, spec });
      i = j + 1;
      continue;
    }
    if (c === "}") {
      if (text[i + 1] === "}") {
        literal += "}";
        i += 2;
        continue;
      }
      throw new PythonError("Single '}' encountered in format string");
    }
    literal += c;
    i++;
  }
  if (literal) parts.push({ literal });
  return parts;
}

/**
 * What `value.format()` does to a stored string: the plain text with `{{`/`}}` collapsed, or
 * `undefined` when it holds a replacement field (then Confluent stores it as an expression).
 */
export function formatWithoutArguments(value: string): string | undefined {
  const parts = parseFormat(value);
  if (parts.some((p) => "field" in p)) return undefined;
  return parts.map((p) => ("literal" in p ? p.literal : "")).join("");
}

/** Python's format(value, spec) for the int and str cases expressions produce. */
export function formatValue(value: unknown, spec: string): string {
  if (value === null || value === undefined) return formatValue("None", spec);
  const m = /^(?:(.)?([<>=^]))?([+\- ])?(#)?(0)?(\d+)?(,)?(?:\.(\d+))?([bcdeEfFgGnosxX%])?$/.exec(spec);
  if (!m)
    throw new PythonError(
      `Invalid format specifier '${spec}' for object of type '${typeof value === "number" ? "int" : "str"}'`,
    );
  const [, fillChar, alignChar, sign, , zero, widthText, , , type] = m;
  let text: string;
  const isInt = typeof value === "number" && Number.isInteger(value);
  if (isInt) {
    const n = value as number;
    const abs = Math.abs(n);
    switch (type) {
      case "x":
        text = abs.toString(16);
        break;
      case "X":
        text = abs.toString(16).toUpperCase();
        break;
      case "o":
        text = abs.toString(8);
        break;
      case "b":
        text = abs.toString(2);
        break;
      case undefined:
      case "d":
      case "n":
        text = String(abs);
        break;
      default:
        throw new PythonError(`Unknown format code '${type}' for object of type 'int'`);
    }
    const signText = n < 0 ? "-" : sign === "+" ? "+" : sign === " " ? " " : "";
    const width = widthText ? Number(widthText) : 0;
    if (zero && !alignChar) return signText + text.padStart(width - signText.length, "0");
    text = signText + text;
  } else {
    if (type && type !== "s") {
      throw new PythonError(`Unknown format code '${type}' for object of type 'str'`);
    }
    text = String(value);
  }
  const width = widthText ? Number(widthText) : 0;
  if (text.length >= width) return text;
  const fill = fillChar ?? (zero ? "0" : " ");
  const align = alignChar ?? (isInt ? ">" : "<");
  const pad = width - text.length;
  if (align === "<") return text + fill.repeat(pad);
  if (align === "^") return fill.repeat(Math.floor(pad / 2)) + text + fill.repeat(Math.ceil(pad / 2));
  return fill.repeat(pad) + text;
}
