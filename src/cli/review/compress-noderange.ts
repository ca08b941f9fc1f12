/**
 * Node names → a compact xCAT noderange, the inverse of `expandNoderange`
 * (src/contract/noderange.ts): `r01n01 … r16n32` → `r[01-16]n[01-32]`, `cn001 … cn512` →
 * `cn[001-512]`, mixed sets → comma lists (`n1,n5,r01n[01-04]`). xCAT admins read plans this way
 * (xcoll prints collapsed groups of nodes as noderanges), so a review prints them too.
 *
 * Pure: expanding the result with `expandNoderange` gives back exactly the input set.
 */
import { compareStrings } from "../../contract/noderange";

/** A name cut into text and number fields: `r01n02` → texts ["r","n",""], numbers ["01","02"]. */
interface CutName {
  readonly texts: readonly string[];
  readonly numbers: readonly string[];
}

/** Characters that mean something in a noderange: names holding them are printed as they are. */
const SPECIAL = /[[\],@=~+:!^/*-]/;

function cut(name: string): CutName {
  const parts = name.split(/(\d+)/);
  return {
    texts: parts.filter((_, i) => i % 2 === 0),
    numbers: parts.filter((_, i) => i % 2 === 1),
  };
}

/**
 * Names of the same shape (same texts, same digit count per number) can share brackets. Keying
 * on the digit count keeps every printed range exact: `[01-16]` pads to two digits, `[10-99]` is
 * unpadded and its numbers all have two digits anyway.
 */
function shapeKey(name: CutName): string {
  return JSON.stringify([name.texts, name.numbers.map((n) => n.length)]);
}

/**
 * Sorted numbers (all of one digit count) → `[01-16]` or `[01-04,09,12-13]`; numbers with no run
 * among them stay separate (`n1,n5` reads better than `n[1,5]`).
 */
function formatNumbers(numbers: readonly string[]): string[] {
  const sorted = [...numbers].sort((a, b) => Number(a) - Number(b));
  const pieces: string[] = [];
  let start = 0;
  for (let i = 1; i <= sorted.length; i++) {
    if (i < sorted.length && Number(sorted[i]) === Number(sorted[i - 1]) + 1) continue;
    const first = sorted[start] ?? "";
    const last = sorted[i - 1] ?? "";
    pieces.push(first === last ? first : `${first}-${last}`);
    start = i;
  }
  return pieces.some((piece) => piece.includes("-")) ? [`[${pieces.join(",")}]`] : pieces;
}

/**
 * Compresses names of one shape from number field `field` on: for each value of this field, the
 * compressed rest; values whose rest is identical share one bracket (`r[01-16]` × `n[01-32]`).
 */
function compressShape(names: readonly CutName[], field: number): string[] {
  const first = names[0];
  if (first === undefined) return [];
  const text = first.texts[field] ?? "";
  if (field === first.numbers.length) return [text];
  const restByValue = new Map<string, CutName[]>();
  for (const name of names) {
    const value = name.numbers[field] ?? "";
    const list = restByValue.get(value) ?? [];
    list.push(name);
    restByValue.set(value, list);
  }
  const valuesByRest = new Map<string, { rest: string[]; values: string[] }>();
  for (const [value, group] of restByValue) {
    const rest = compressShape(group, field + 1);
    const key = rest.join(",");
    const entry = valuesByRest.get(key) ?? { rest, values: [] };
    entry.values.push(value);
    valuesByRest.set(key, entry);
  }
  const out: string[] = [];
  for (const { rest, values } of valuesByRest.values()) {
    for (const numbers of formatNumbers(values)) {
      for (const tail of rest) out.push(`${text}${numbers}${tail}`);
    }
  }
  return out;
}

/**
 * The shortest noderange this module can write for a set of node names.
 *
 * @example
 * compressNoderange(["n1", "n5", "r01n01", "r01n02"]) // "n1,n5,r01n[01-02]"
 */
export function compressNoderange(names: Iterable<string>): string {
  const unique = [...new Set(names)];
  const literal = unique.filter((name) => SPECIAL.test(name) || /^\d+$/.test(name));
  const byShape = new Map<string, CutName[]>();
  for (const name of unique) {
    if (literal.includes(name)) continue;
    const piece = cut(name);
    const key = shapeKey(piece);
    const list = byShape.get(key) ?? [];
    list.push(piece);
    byShape.set(key, list);
  }
  const tokens = [...literal];
  for (const group of byShape.values()) tokens.push(...compressShape(group, 0));
  return tokens.sort(compareStrings).join(",");
}
