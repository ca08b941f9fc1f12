/**
 * xCAT noderange expansion (perl-xCAT/xCAT/NodeRange.pm, xcat-behavior.md §1.3), kept pure: the
 * caller says which names are nodes and which are groups. Shared by the emulator, which expands
 * the noderanges it receives, and by clients that want to know which nodes a range names. And
 * the inverse, {@link compressNoderange}: node names written as a short noderange, for requests
 * (the provider) and for people (`pulumi-xcat review`).
 *
 * Supported forms: `a,b` (union), `n1-n5` / `n1:n5` (numeric ranges with a common prefix),
 * `node[1-3]` / `node[001-010]` (bracket ranges, padding kept), `n1+2` (n1 and the next two
 * numbers), group names, `a@b` (intersection), `-x` (exclusion of what came before), a bare
 * number (`5` → `node5`), and attribute selectors (`mgt==kvm`, `nodetype.os!=rhels8.8`,
 * `groups=~^rack`, `mgt!~ipmi`; NodeRange.pm:95-200, 312-326) when the context can read node
 * attributes. `/regex/` and `^/file` are not supported: a REST path segment cannot hold a `/`.
 */

/** What expansion needs to know about the cluster. */
export interface NoderangeContext {
  /** Whether a node of this name is defined. */
  isNode(name: string): boolean;
  /** Members of the group, or undefined when no group of this name exists. */
  groupMembers(name: string): readonly string[] | undefined;
  /**
   * The defined nodes whose `table.column` value (after group inheritance, "" when unset) passes
   * the selector; absent when the context cannot read attributes (selectors then select nothing).
   */
  nodesBySelector?(selector: AttributeSelector): readonly string[];
}

/** An attribute selector atom of a noderange (NodeRange.pm nodesbycriteria). */
export interface AttributeSelector {
  readonly table: string;
  readonly column: string;
  readonly value: string;
  /** `==`/`=` equal, `!=` not equal, `=~` regex match, `!~` regex mismatch. */
  readonly match: "equal" | "notEqual" | "regex" | "notRegex";
}

/** NodeRange.pm:97-100: attribute names usable without a table. */
const SELECTOR_SHORT_NAMES: Readonly<Record<string, readonly [string, string]>> = {
  groups: ["nodelist", "groups"],
  tags: ["nodelist", "groups"],
  mgt: ["nodehm", "mgt"],
};

/**
 * Parses an attribute selector as NodeRange.pm:115-139 does (the operators tried in its order,
 * regex values stripped of one leading and one trailing `/`); undefined when the name is neither
 * a short name nor `table.column` (xCAT then selects no node).
 */
export function parseAttributeSelector(atom: string): AttributeSelector | undefined {
  const forms: [RegExp, string, AttributeSelector["match"]][] = [
    [/^[^=]*!=/, "!=", "notEqual"],
    [/^[^=]*=~/, "=~", "regex"],
    [/[^=]*==/, "==", "equal"],
    [/[^=]*=/, "=", "equal"],
    [/[^=]*!~/, "!~", "notRegex"],
  ];
  for (const [test, operator, match] of forms) {
    if (!test.test(atom)) continue;
    const at = atom.indexOf(operator);
    const name = atom.slice(0, at);
    let value = atom.slice(at + operator.length);
    if (match === "regex" || match === "notRegex") value = value.replace(/^\//, "").replace(/\/$/, "");
    const short = SELECTOR_SHORT_NAMES[name];
    const dot = name.indexOf(".");
    if (short) return { table: short[0], column: short[1], value, match };
    if (dot > 0) return { table: name.slice(0, dot), column: name.slice(dot + 1), value, match };
    return undefined;
  }
  return undefined;
}

/**
 * Splits a noderange at top-level commas (commas inside brackets belong to the bracket range).
 *
 * @example splitNoderange("n[1,3],g1") // ["n[1,3]", "g1"]
 */
export function splitNoderange(noderange: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of noderange) {
    if (ch === "[") depth++;
    if (ch === "]") depth = Math.max(0, depth - 1);
    if (ch === "," && depth === 0) {
      parts.push(current);
      current = "";
      continue;
    }
    current += ch;
  }
  parts.push(current);
  return parts.filter((p) => p !== "");
}

const NUMBERED = /^(.*?)(\d+)$/;

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

/** `node[1-3]`, `node[01-10]`, `node[1,4]`, `r[1-2]n[1-2]`; undefined when there is no bracket. */
function expandBrackets(token: string): string[] | undefined {
  const match = /^(.*?)\[([^\]]*)\](.*)$/.exec(token);
  if (!match) return undefined;
  const [, prefix = "", inner = "", rest = ""] = match;
  const values: string[] = [];
  for (const piece of inner.split(",")) {
    const range = /^(\d+)[-:](\d+)$/.exec(piece);
    if (range) {
      const [, from = "", to = ""] = range;
      const width = from.startsWith("0") ? from.length : 0;
      const start = Number(from);
      const end = Number(to);
      if (end - start > 100_000) return undefined;
      for (let i = start; i <= end; i++) values.push(pad(i, width));
    } else if (piece !== "") {
      values.push(piece);
    }
  }
  const tails = expandBrackets(rest) ?? [rest];
  return values.flatMap((v) => tails.map((t) => `${prefix}${v}${t}`));
}

/** `n01-n10` or `n01:n10` with a shared prefix; undefined when the token is no such range. */
function expandDashRange(token: string): string[] | undefined {
  for (const sep of ["-", ":"]) {
    const at = token.indexOf(sep);
    if (at <= 0) continue;
    const left = NUMBERED.exec(token.slice(0, at));
    const right = NUMBERED.exec(token.slice(at + 1));
    if (!left || !right || left[1] !== right[1]) continue;
    const prefix = left[1] ?? "";
    const from = left[2] ?? "";
    const start = Number(from);
    const end = Number(right[2]);
    if (end < start || end - start > 100_000) continue;
    const width = from.startsWith("0") ? from.length : 0;
    const out: string[] = [];
    for (let i = start; i <= end; i++) out.push(`${prefix}${pad(i, width)}`);
    return out;
  }
  return undefined;
}

/** `n1+2` → n1, n2, n3. */
function expandPlus(token: string): string[] | undefined {
  const match = /^(.*?)(\d+)\+(\d+)$/.exec(token);
  if (!match) return undefined;
  const [, prefix = "", from = "", count = ""] = match;
  const start = Number(from);
  const width = from.startsWith("0") ? from.length : 0;
  const out: string[] = [];
  for (let i = 0; i <= Number(count) && i <= 100_000; i++) out.push(`${prefix}${pad(start + i, width)}`);
  return out;
}

function expandAtom(token: string, context: NoderangeContext): string[] {
  if (context.isNode(token)) return [token];
  const members = context.groupMembers(token);
  if (members) return [...members];
  if (token.includes("@")) {
    const [first = "", ...others] = token.split("@");
    let result = new Set(expandAtom(first, context));
    for (const other of others) {
      const right = new Set(expandAtom(other, context));
      result = new Set([...result].filter((n) => right.has(n)));
    }
    return [...result];
  }
  if (/[=~]/.test(token)) {
    // NodeRange.pm:312-326: selection by attribute value; an unusable selector selects nothing.
    const selector = parseAttributeSelector(token);
    return selector && context.nodesBySelector ? [...context.nodesBySelector(selector)] : [];
  }
  if (/^\d+$/.test(token)) return [`node${token}`];
  return expandBrackets(token) ?? expandPlus(token) ?? expandDashRange(token) ?? [token];
}

/**
 * Expands a noderange into node names, sorted as strings and de-duplicated, as xCAT does. Names
 * that are neither nodes nor groups are kept (lsdef/chdef/rmdef report them per object; action
 * commands reject them, see {@link unknownNames}).
 *
 * @example
 * expandNoderange("n[1-3],-n2", { isNode: () => false, groupMembers: () => undefined }) // ["n1", "n3"]
 */
export function expandNoderange(noderange: string, context: NoderangeContext): string[] {
  const result = new Set<string>();
  for (const token of splitNoderange(noderange)) {
    if (token.startsWith("-") && token.length > 1 && !context.isNode(token)) {
      for (const name of expandAtom(token.slice(1), context)) result.delete(name);
      continue;
    }
    for (const name of expandAtom(token, context)) result.add(name);
  }
  return [...result].sort(compareStrings);
}

/** The names of an expanded noderange that are not defined nodes. */
export function unknownNames(names: readonly string[], context: NoderangeContext): string[] {
  return names.filter((n) => !context.isNode(n));
}

/** Plain code-unit string order, the order Perl's `sort` gives. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// --- Compression: node names → a short noderange, the inverse of expandNoderange ----------------

/** A name cut into text and number fields: `r01n02` → texts ["r","n",""], numbers ["01","02"]. */
interface CutName {
  readonly texts: readonly string[];
  readonly numbers: readonly string[];
}

/**
 * Names that can go into brackets: letters, digits, `_` and `-` (the characters xCAT allows in a
 * node name, DBobjUtils/xcat-behavior.md §1.3), not starting with `-` (an exclusion,
 * NodeRange.pm:665-667), and no number longer than 15 digits (kept exact as a JavaScript number).
 * Any other name (an IP, a name with a noderange operator) is written as it is.
 */
const BRACKETABLE = /^(?!-)[A-Za-z0-9_-]+$/;

function cut(name: string): CutName {
  const parts = name.split(/(\d+)/);
  return {
    texts: parts.filter((_, i) => i % 2 === 0),
    numbers: parts.filter((_, i) => i % 2 === 1),
  };
}

/**
 * Names of the same shape (same texts, same digit count per number) can share brackets. Keying
 * on the digit count keeps every range exact for xCAT too: `[01-16]` is a range of strings in
 * Perl (leading zero) that keeps the width, `[10-99]` a range of numbers of one width anyway.
 */
function shapeKey(name: CutName): string {
  return JSON.stringify([name.texts, name.numbers.map((n) => n.length)]);
}

/**
 * Numbers of one digit count → `[01-16]` or `[01-04,09,12-13]`; numbers with no run among them
 * stay separate (`n1,n5` reads better than `n[1,5]`), and so do all of them when no text precedes
 * the bracket (`1n01`): xCAT only sees a bracket after at least one character (NodeRange.pm:352).
 */
function formatNumbers(numbers: readonly string[], textBefore: string): string[] {
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
  if (textBefore === "") return sorted;
  return pieces.some((piece) => piece.includes("-")) ? [`[${pieces.join(",")}]`] : pieces;
}

/**
 * Compresses names of one shape from number field `field` on: for each value of this field, the
 * compressed rest; values whose rest is identical share one bracket (`r[01-16]` × `n[01-32]`,
 * which xCAT expands bracket by bracket, NodeRange.pm:352-381).
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
    for (const numbers of formatNumbers(values, text)) {
      for (const tail of rest) out.push(`${text}${numbers}${tail}`);
    }
  }
  return out;
}

/**
 * The shortest noderange this module can write for a set of node names, in forms xCAT's own
 * parser expands (NodeRange.pm:352-481): `r01n01 … r16n32` → `r[01-16]n[01-32]`, `cn001 …
 * cn512` → `cn[001-512]`, mixed sets → a sorted comma list. Used for the requests the provider
 * sends (one request per batch, short enough for a URL) and for what `pulumi-xcat review` prints
 * (xCAT admins read node sets this way, as xcoll prints them). Expanding the result with
 * {@link expandNoderange} gives back exactly the input set.
 *
 * @example
 * compressNoderange(["n1", "n5", "r01n01", "r01n02"]) // "n1,n5,r01n[01-02]"
 */
export function compressNoderange(names: Iterable<string>): string {
  const literal: string[] = [];
  const byShape = new Map<string, CutName[]>();
  for (const name of new Set(names)) {
    const piece = cut(name);
    if (!BRACKETABLE.test(name) || piece.numbers.length === 0 || piece.numbers.some((n) => n.length > 15)) {
      literal.push(name);
      continue;
    }
    const key = shapeKey(piece);
    const list = byShape.get(key) ?? [];
    list.push(piece);
    byShape.set(key, list);
  }
  const tokens = [...literal];
  for (const group of byShape.values()) tokens.push(...compressShape(group, 0));
  return tokens.sort(compareStrings).join(",");
}
