/**
 * xCAT's regular-expression attribute values (`|\D+(\d+)|10.0.0.($1+0)|` or `/pat/repl/`), as
 * DBobjUtils/Table.pm expand them for a node that inherits them from a group
 * (xcat-behavior.md 5.2; /tmp/xc/perl-xCAT/xCAT/Table.pm, sub getNodeAttribs: the `|...|...|`
 * form evaluates each parenthesised arithmetic, the `/.../.../` form is a plain substitution).
 */

/** True when a value is one of xCAT's regex forms rather than a literal. */
export function isXcatRegex(value: string): boolean {
  return /^\|.*\|.*\|$/s.test(value) || /^\/.*\/.*\/$/s.test(value);
}

/** The value a node named `node` gets from a regex value (the value itself when it does not match, as Table.pm leaves it). */
export function expandXcatRegex(value: string, node: string): string {
  const delimiter = value[0];
  const parts = value.slice(1, -1).split(delimiter ?? "|");
  if (parts.length !== 2) return value;
  const [pattern, replacement] = parts as [string, string];
  let match: RegExpExecArray | null;
  try {
    match = new RegExp(pattern).exec(node);
  } catch {
    return value;
  }
  if (match === null) return value;
  const groups = match;
  const substitute = (text: string) => text.replace(/\$(\d)/g, (_, n: string) => groups[Number(n)] ?? "");
  if (delimiter === "/") return node.replace(new RegExp(pattern), replacement);
  // `|...|` form: each parenthesised part is arithmetic on the captures.
  return replacement.replace(/\(([^()]*)\)/g, (_, expression: string) => {
    const arithmetic = substitute(expression);
    return /^[\d\s+\-*/%]+$/.test(arithmetic) ? String(evaluate(arithmetic)) : arithmetic;
  });
}

/** Integer arithmetic with + - * / % and left-to-right precedence of * / % over + -. */
function evaluate(expression: string): number {
  const tokens = expression.match(/\d+|[+\-*/%]/g) ?? [];
  const terms: number[] = [];
  const ops: string[] = [];
  let current = Number(tokens[0] ?? 0);
  for (let i = 1; i + 1 < tokens.length; i += 2) {
    const op = tokens[i] as string;
    const operand = Number(tokens[i + 1]);
    if (op === "*") current *= operand;
    else if (op === "/") current = Math.trunc(current / operand);
    else if (op === "%") current %= operand;
    else {
      terms.push(current);
      ops.push(op);
      current = operand;
    }
  }
  terms.push(current);
  return terms
    .slice(1)
    .reduce((sum, term, index) => (ops[index] === "-" ? sum - term : sum + term), terms[0] ?? 0);
}
