/**
 * xCAT's regular-expression attribute values: a group row holding `|pattern|replacement|` gives
 * each member node its own value (Table.pm transRegexAttrs, xcat-behavior.md §5.2). Shared by the
 * emulator, which expands them when it derives objects, and by `pulumi-xcat review`, which works
 * out what a group change does to each member.
 */

/**
 * Expands an xCAT regex template `|pattern|replacement|` for one node (Table.pm transRegexAttrs):
 * `$1`... are the captures, and `(...)` groups holding arithmetic are evaluated.
 *
 * @example expandTemplate("|\\D+(\\d+)|10.0.0.($1+10)|", "node5") // "10.0.0.15"
 */
export function expandTemplate(value: string, node: string): string {
  const match = /^\|(.*)\|(.*)\|$/.exec(value);
  if (!match) return value;
  const [, pattern = "", replacement = ""] = match;
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch {
    return value;
  }
  const captures = re.exec(node);
  if (!captures) return value;
  const substituted = replacement.replace(/\$(\d+)/g, (_, i: string) => captures[Number(i)] ?? "");
  return substituted.replace(/\(([\d\s+\-*/%]+)\)/g, (whole, expr: string) => {
    const result = evaluateArithmetic(expr);
    return result === undefined ? whole : String(result);
  });
}

/** Integer arithmetic with + - * / % and the usual precedence; undefined when malformed. */
function evaluateArithmetic(expr: string): number | undefined {
  const tokens = expr.match(/\d+|[+\-*/%]/g) ?? [];
  let pos = 0;
  const term = (): number | undefined => {
    let value = Number(tokens[pos++]);
    if (!Number.isFinite(value)) return undefined;
    while (tokens[pos] === "*" || tokens[pos] === "/" || tokens[pos] === "%") {
      const op = tokens[pos++];
      const right = Number(tokens[pos++]);
      if (!Number.isFinite(right)) return undefined;
      if (op === "*") value *= right;
      else if (right === 0) return undefined;
      else value = op === "/" ? Math.trunc(value / right) : value % right;
    }
    return value;
  };
  let value = term();
  while (value !== undefined && (tokens[pos] === "+" || tokens[pos] === "-")) {
    const op = tokens[pos++];
    const right = term();
    if (right === undefined) return undefined;
    value = op === "+" ? value + right : value - right;
  }
  return pos === tokens.length ? value : undefined;
}
