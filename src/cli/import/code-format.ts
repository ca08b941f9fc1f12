/**
 * Layout of the generated program: an expression stays on one line when it fits in
 * {@link LINE_WIDTH} columns and is otherwise broken one element per line, as a formatter would
 * (objects, arrays and call arguments; the innermost parts that fit stay inline). The program is
 * meant to be read and committed, so no line is longer than it needs to be.
 */

/** The longest line the generated program should have. */
export const LINE_WIDTH = 120;

/** An expression: source text, or an object, array or call whose parts are expressions. */
export type Code =
  | string
  | { readonly object: ReadonlyArray<readonly [key: string, value: Code]> }
  | { readonly array: readonly Code[] }
  | { readonly call: string; readonly args: readonly Code[] };

const INDENT = "  ";

/** `code` on one line. */
export function inline(code: Code): string {
  if (typeof code === "string") return code;
  if ("object" in code) {
    return code.object.length === 0
      ? "{}"
      : `{ ${code.object.map(([key, value]) => entry(key, inline(value))).join(", ")} }`;
  }
  if ("array" in code) return `[${code.array.map(inline).join(", ")}]`;
  return `${code.call}(${code.args.map(inline).join(", ")})`;
}

/**
 * `code` starting at column `column` with `tail` after it on its last line, broken over lines at
 * `indent` where it does not fit.
 */
export function layout(code: Code, indent: string, column: number, tail: string): string {
  const flat = inline(code);
  if (typeof code === "string" || column + flat.length + tail.length <= LINE_WIDTH) return flat;
  const inner = indent + INDENT;
  const lines = (parts: readonly string[]) => parts.map((part) => `${inner}${part},`).join("\n");
  if ("object" in code) {
    const parts = code.object.map(([key, value]) =>
      entry(key, layout(value, inner, inner.length + key.length + 2, ",")),
    );
    return `{\n${lines(parts)}\n${indent}}`;
  }
  if ("array" in code) {
    return `[\n${lines(code.array.map((item) => layout(item, inner, inner.length, ",")))}\n${indent}]`;
  }
  return `${code.call}(\n${lines(code.args.map((arg) => layout(arg, inner, inner.length, ",")))}\n${indent})`;
}

/** `key: value`, or the shorthand `key` when the value is the variable of that name. */
function entry(key: string, value: string): string {
  return key === value ? key : `${key}: ${value}`;
}

/** A statement: `head` followed by `code` and `tail` (e.g. `;`), at `indent`. */
export function statement(indent: string, head: string, code: Code, tail = ";"): string {
  return `${indent}${head}${layout(code, indent, indent.length + head.length, tail)}${tail}`;
}
