/**
 * The arithmetic inside an xCAT regex value's brackets, `10.0.0.($1+10)`: xCAT hands the bracket's
 * text to Perl (`$evalcpt->reval('use integer;' . $value)`, perl-xCAT/xCAT/Table.pm 2687) with the
 * node name's captures as `$1`, `$2`, … and its helper functions shared into the compartment
 * (Table.pm 2609-2614: mknum, a2idx, a2zidx, dim2idx, skip, ipadd; bodies 2459-2607).
 *
 * This evaluates the part of Perl those values use: integers, quoted strings, `$n`, unary minus,
 * `+ - * / %` under `use integer` (division truncates toward zero) and the helper functions.
 * Anything else (another Perl operator, a bareword, text around the bracket) is answered with
 * undefined: the caller then does not know the value, rather than guessing one.
 */

type PerlValue = number | string;

/** Perl's numeric value of a scalar under `use integer`: leading digits after optional space and sign, else 0. */
function numify(value: PerlValue): number {
  if (typeof value === "number") return value;
  const match = /^\s*([+-]?\d+)/.exec(value);
  return match ? Number(match[1]) : 0;
}

/** xCAT's helper functions (Table.pm 2459-2607), called with Perl's argument values. */
const HELPERS: Readonly<Record<string, (args: PerlValue[]) => number | string | undefined>> = {
  // Sum of the string's byte values (Table.pm 2459-2466).
  mknum: ([text = ""]) =>
    [...String(text)].reduce((sum, character) => sum + (character.codePointAt(0) ?? 0), 0),
  // ord(lc(shift)) - 96 (Table.pm 2483-2485): 'a' is 1.
  a2idx: ([text = ""]) => ordinal(text) - 96,
  // ord(lc(shift)) - 97 (Table.pm 2502-2504): 'a' is 0.
  a2zidx: ([text = ""]) => ordinal(text) - 97,
  // Alternately add (element - 1) and multiply by the element, then + 1 (Table.pm 2529-2538).
  dim2idx: (args) => {
    let value = 0;
    let multiply = false;
    for (const element of args) {
      value = multiply ? value * numify(element) : value + numify(element) - 1;
      multiply = !multiply;
    }
    return value + 1;
  },
  // An index with the listed start[:count] ranges left out; -1 for an index inside one (Table.pm 2558-2573).
  skip: ([index = 0, skips = ""]) => {
    const start = numify(index);
    let value = start;
    for (const element of String(skips).split(",")) {
      const [from = "", count] = element.split(":");
      const first = numify(from);
      const width = count === undefined ? 1 : numify(count);
      if (start < first) break;
      if (start < first + width) return -1;
      value -= width;
    }
    return value;
  },
  // An address plus an offset, carried across the last octet (Table.pm 2592-2607, under use integer).
  ipadd: (args) => {
    // A missing argument is undef, 0 in arithmetic.
    const [b1 = 0, b2 = 0, b3 = 0, b4 = 0, toadd = 0, skipstart = 0, skipend = 0] = args.map(numify);
    const span = 256 - skipstart - skipend;
    if (span === 0) return undefined;
    const offset = b4 >= skipstart ? b4 - skipstart : 0;
    return [b1, b2, b3 + Math.trunc((offset + toadd) / span), ((offset + toadd) % span) + skipstart].join(
      ".",
    );
  },
};

function ordinal(text: PerlValue): number {
  const first = String(text).toLowerCase().codePointAt(0);
  return first ?? 0;
}

type Token =
  | { kind: "number"; value: number }
  | { kind: "string"; value: string }
  | { kind: "capture"; index: number }
  | { kind: "name"; value: string }
  | { kind: "op"; value: string };

function tokenize(text: string): Token[] | undefined {
  const tokens: Token[] = [];
  const pattern = /\s*(?:(\d+)|'([^'\\]*)'|"([^"\\$@]*)"|\$(\d+)|([A-Za-z_]\w*)|([-+*/%(),]))/y;
  let position = 0;
  while (position < text.length) {
    if (/^\s*$/.test(text.slice(position))) break;
    pattern.lastIndex = position;
    const match = pattern.exec(text);
    if (!match) return undefined;
    position = pattern.lastIndex;
    const [, digits, single, double, capture, name, op] = match;
    if (digits !== undefined) tokens.push({ kind: "number", value: Number(digits) });
    else if (single !== undefined) tokens.push({ kind: "string", value: single });
    else if (double !== undefined) tokens.push({ kind: "string", value: double });
    else if (capture !== undefined) tokens.push({ kind: "capture", index: Number(capture) });
    else if (name !== undefined) tokens.push({ kind: "name", value: name });
    else if (op !== undefined) tokens.push({ kind: "op", value: op });
  }
  return tokens;
}

class Unsupported extends Error {}

/**
 * Evaluates one bracket's Perl text with the node name's captures (`captures[1]` is `$1`).
 * Undefined when the text is not an expression of the subset above, or divides by zero (Perl's
 * reval then fails too, and xCAT puts nothing in the bracket's place).
 *
 * @example evaluatePerlInteger("($1+10)", ["node5", "5"]) // "15"
 */
export function evaluatePerlInteger(
  text: string,
  captures: readonly (string | undefined)[],
): string | undefined {
  const tokens = tokenize(text);
  if (tokens === undefined) return undefined;
  let position = 0;
  const peek = (): Token | undefined => tokens[position];
  const isOp = (value: string): boolean => {
    const token = peek();
    return token?.kind === "op" && token.value === value;
  };
  const expectOp = (value: string): void => {
    if (!isOp(value)) throw new Unsupported();
    position++;
  };

  const primary = (): PerlValue => {
    const token = tokens[position++];
    if (token === undefined) throw new Unsupported();
    switch (token.kind) {
      case "number":
        return token.value;
      case "string":
        return token.value;
      case "capture": {
        const value = captures[token.index];
        // An unset capture is undef in Perl; this port does not follow it further.
        if (value === undefined) throw new Unsupported();
        return value;
      }
      case "name": {
        const helper = HELPERS[token.value];
        if (helper === undefined) throw new Unsupported();
        expectOp("(");
        const args: PerlValue[] = [];
        if (!isOp(")")) {
          args.push(additive());
          while (isOp(",")) {
            position++;
            args.push(additive());
          }
        }
        expectOp(")");
        const result = helper(args);
        if (result === undefined) throw new Unsupported();
        return result;
      }
      case "op":
        if (token.value === "(") {
          const inner = additive();
          expectOp(")");
          return inner;
        }
        if (token.value === "-") return -numify(unary());
        if (token.value === "+") return unary();
        throw new Unsupported();
    }
  };
  const unary = (): PerlValue => primary();
  const multiplicative = (): PerlValue => {
    let value = unary();
    while (isOp("*") || isOp("/") || isOp("%")) {
      const op = (tokens[position++] as { value: string }).value;
      const left = numify(value);
      const right = numify(unary());
      if (op === "*") value = left * right;
      else if (right === 0) throw new Unsupported();
      else value = op === "/" ? Math.trunc(left / right) : left % right;
    }
    return value;
  };
  const additive = (): PerlValue => {
    let value = multiplicative();
    while (isOp("+") || isOp("-")) {
      const op = (tokens[position++] as { value: string }).value;
      const right = numify(multiplicative());
      value = op === "+" ? numify(value) + right : numify(value) - right;
    }
    return value;
  };

  try {
    const value = additive();
    if (position !== tokens.length) return undefined;
    return typeof value === "number" ? String(Math.trunc(value)) : value;
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}
