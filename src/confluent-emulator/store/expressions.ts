/**
 * Confluent's attribute expressions: `{n1}`, `{node}`, `{location.rack}`, arithmetic and a few
 * string methods inside Python format fields, evaluated per node (configmanager.py:1130
 * _ExpressionFormat, 3.15.6). Each field is parsed as a Python expression and walked by
 * _handle_ast_node (:1180); what it does not support raises, which a read reports as
 * `{"broken": "<message>"}` (:1295 _decode_attribute) and an evaluation request as an error.
 */
import { CONFLUENT_ATTRIBUTE_ALIASES, isUnknownAttributeName } from "../../contract/confluent/attributes";
import { formatValue, PythonError, parseFormat } from "./python-format";

/** What an expression can see of its node. */
export interface ExpressionScope {
  readonly nodeName: string;
  /** The decoded value of an attribute the node has (own or inherited), or undefined. */
  lookup(attribute: string): { value?: unknown; broken?: string } | undefined;
  /** Whether the node has the attribute at all (set, inherited or expression). */
  has(attribute: string): boolean;
}

type Expr =
  | { kind: "num"; value: number }
  | { kind: "str"; value: string }
  | { kind: "name"; id: string }
  | { kind: "attr"; value: Expr; attr: string }
  | { kind: "bin"; op: string; left: Expr; right: Expr }
  | { kind: "neg"; operand: Expr }
  | { kind: "unary"; op: string; operand: Expr }
  | { kind: "index"; value: Expr; index: Expr }
  | { kind: "slice"; value: Expr; lower?: Expr; upper?: Expr }
  | { kind: "call"; func: Expr; args: Expr[] };

const SYNTAX = "invalid syntax (<unknown>, line 1)";

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const re = /\s*(\d+|[A-Za-z_][A-Za-z0-9_]*|'[^']*'|"[^"]*"|\/\/|<<|>>|\*\*|[-+*/%&^|()[\].,:~])/y;
  let pos = 0;
  while (pos < text.length) {
    if (/^\s*$/.test(text.slice(pos))) break;
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m) throw new PythonError(SYNTAX);
    tokens.push(m[1] ?? "");
    pos = re.lastIndex;
  }
  return tokens;
}

const BINARY_PRECEDENCE: Readonly<Record<string, number>> = {
  "|": 1,
  "^": 2,
  "&": 3,
  "<<": 4,
  ">>": 4,
  "+": 5,
  "-": 5,
  "*": 6,
  "/": 6,
  "//": 6,
  "%": 6,
};

function parse(text: string): Expr {
  const tokens = tokenize(text);
  let i = 0;
  const peek = () => tokens[i];
  const take = (expected?: string) => {
    const t = tokens[i++];
    if (t === undefined || (expected !== undefined && t !== expected)) throw new PythonError(SYNTAX);
    return t;
  };
  const primary = (): Expr => {
    const t = take();
    let node: Expr;
    if (/^\d+$/.test(t)) node = { kind: "num", value: Number(t) };
    else if (/^['"]/.test(t)) node = { kind: "str", value: t.slice(1, -1) };
    else if (/^[A-Za-z_]/.test(t)) node = { kind: "name", id: t };
    else if (t === "(") {
      node = expression(0);
      take(")");
    } else if (t === "-") return { kind: "neg", operand: unary() };
    else if (t === "+" || t === "~") return { kind: "unary", op: t, operand: unary() };
    else throw new PythonError(SYNTAX);
    for (;;) {
      const n = peek();
      if (n === ".") {
        take();
        const attr = take();
        if (!/^[A-Za-z_]/.test(attr)) throw new PythonError(SYNTAX);
        node = { kind: "attr", value: node, attr };
      } else if (n === "(") {
        take();
        const args: Expr[] = [];
        while (peek() !== ")") {
          args.push(expression(0));
          if (peek() === ",") take();
          else break;
        }
        take(")");
        node = { kind: "call", func: node, args };
      } else if (n === "[") {
        take();
        let lower: Expr | undefined;
        if (peek() !== ":") lower = expression(0);
        if (peek() === ":") {
          take();
          const upper = peek() !== "]" ? expression(0) : undefined;
          take("]");
          node = { kind: "slice", value: node, ...(lower ? { lower } : {}), ...(upper ? { upper } : {}) };
        } else {
          take("]");
          if (!lower) throw new PythonError(SYNTAX);
          node = { kind: "index", value: node, index: lower };
        }
      } else break;
    }
    return node;
  };
  const unary = (): Expr => primary();
  const expression = (minPrec: number): Expr => {
    let left = unary();
    for (;;) {
      const op = peek();
      const prec = op !== undefined ? BINARY_PRECEDENCE[op] : undefined;
      if (op === undefined || prec === undefined || prec <= minPrec - 1 || prec < minPrec) break;
      take();
      const right = expression(prec + 1);
      left = { kind: "bin", op, left, right };
    }
    return left;
  };
  const result = expression(0);
  if (i !== tokens.length) throw new PythonError(SYNTAX);
  return result;
}

/** Python's int() of a value, with its error text. */
function pyInt(value: unknown): number {
  if (typeof value === "number") return Math.trunc(value);
  const s = String(value).trim();
  if (/^[-+]?\d+$/.test(s)) return Number.parseInt(s, 10);
  throw new PythonError(`invalid literal for int() with base 10: '${String(value)}'`);
}

function floorDiv(a: number, b: number): number {
  if (b === 0) throw new PythonError("integer division or modulo by zero");
  return Math.floor(a / b);
}

const OPERATIONS: Readonly<Record<string, (a: number, b: number) => number>> = {
  "*": (a, b) => a * b,
  // ast.Div maps to operator.floordiv (configmanager.py:1139); `//` (FloorDiv) is not supported.
  "/": floorDiv,
  "%": (a, b) => {
    if (b === 0) throw new PythonError("integer division or modulo by zero");
    return ((a % b) + b) % b;
  },
  "+": (a, b) => a + b,
  "-": (a, b) => a - b,
  "<<": (a, b) => a * 2 ** b,
  ">>": (a, b) => Math.floor(a / 2 ** b),
  "&": (a, b) => a & b,
  "^": (a, b) => a ^ b,
  "|": (a, b) => a | b,
};

function attributeValue(scope: ExpressionScope, key: string): unknown {
  const v = scope.lookup(key);
  return v && "value" in v ? v.value : "";
}

function evaluate(node: Expr, scope: ExpressionScope, numbers: () => string[]): unknown {
  switch (node.kind) {
    case "num":
    case "str":
      return node.value;
    case "attr": {
      // A dotted chain is an attribute name: net.pxe.hwaddr (configmanager.py:1183).
      let key = node.attr;
      let left: Expr = node.value;
      while (left.kind === "attr") {
        key = `${left.attr}.${key}`;
        left = left.value;
      }
      if (left.kind !== "name") {
        throw new PythonError("Invalid AST structure: expected ast.Name at end of attribute chain");
      }
      key = `${left.id}.${key}`;
      if (isUnknownAttributeName(key) && !key.startsWith("custom.")) {
        throw new PythonError(`${key} is not a valid attribute name`);
      }
      return attributeValue(scope, key);
    }
    case "name": {
      const id = node.id;
      if (id === "node" || id === "nodename") return scope.nodeName;
      const alias = CONFLUENT_ATTRIBUTE_ALIASES[id];
      if (alias) return attributeValue(scope, alias);
      const m = /^n([0-9]*)$/.exec(id);
      if (m) {
        // n1 is the first number in the name, n0 the last (Python's list[-1]).
        const idx = Number(m[1] || "NaN");
        const all = numbers();
        const pick = Number.isNaN(idx) ? undefined : idx === 0 ? all[all.length - 1] : all[idx - 1];
        if (pick === undefined)
          throw new PythonError(
            Number.isNaN(idx) ? "invalid literal for int() with base 10: ''" : "list index out of range",
          );
        return Number.parseInt(pick, 10);
      }
      if (scope.has(id)) return attributeValue(scope, id);
      if (isUnknownAttributeName(id)) throw new PythonError(`${id} is not a valid attribute name`);
      return null;
    }
    case "bin": {
      const op = OPERATIONS[node.op];
      if (!op) throw new PythonError("Unsupported operation");
      return op(pyInt(evaluate(node.left, scope, numbers)), pyInt(evaluate(node.right, scope, numbers)));
    }
    case "neg": {
      const v = evaluate(node.operand, scope, numbers);
      if (typeof v !== "number") throw new PythonError("unsupported operand type(s) for -: 'int' and 'str'");
      return 0 - v;
    }
    case "unary":
      throw new PythonError("Invalid operation in expression");
    case "index": {
      const s = evaluate(node.value, scope, numbers);
      const idx = evaluate(node.index, scope, numbers);
      if (typeof s !== "string" || typeof idx !== "number")
        throw new PythonError("string indices must be integers");
      const at = idx < 0 ? s.length + idx : idx;
      if (at < 0 || at >= s.length) throw new PythonError("string index out of range");
      return s[at];
    }
    case "slice": {
      const s = String(evaluate(node.value, scope, numbers));
      const lower = node.lower ? pyInt(evaluate(node.lower, scope, numbers)) : 0;
      const upper = node.upper ? pyInt(evaluate(node.upper, scope, numbers)) : undefined;
      return upper === undefined ? s.slice(lower) : s.slice(lower, upper);
    }
    case "call": {
      if (node.func.kind !== "attr") throw new PythonError("Invalid function call syntax in expression");
      const name = node.func.attr;
      const base = evaluate(node.func.value, scope, numbers);
      const args = node.args.map((a) => evaluate(a, scope, numbers));
      switch (name) {
        case "replace":
          if (args.length !== 2) throw new PythonError("Invalid number of arguments to replace");
          return String(base).replaceAll(String(args[0]), String(args[1]));
        case "upper":
          return String(base).toUpperCase();
        case "lower":
          return String(base).toLowerCase();
        case "block_number":
          return Math.floor((pyInt(base) - 1) / pyInt(args[0])) + 1;
        case "block_offset":
          return ((((pyInt(base) - 1) % pyInt(args[0])) + pyInt(args[0])) % pyInt(args[0])) + 1;
        default:
          throw new PythonError("Unsupported function in expression");
      }
    }
  }
}

/** Expands an expression for one node; throws PythonError with Confluent's message when it cannot. */
export function expandExpression(expression: string, scope: ExpressionScope): string {
  let numbers: string[] | undefined;
  const getNumbers = () => {
    numbers ??= scope.nodeName.match(/[0-9]+/g) ?? [];
    return numbers;
  };
  let out = "";
  for (const part of parseFormat(expression)) {
    if ("literal" in part) {
      out += part.literal;
      continue;
    }
    let field = part.field;
    let spec = part.spec;
    if (spec.includes("]")) {
      field = `${field}:${spec}`;
      spec = "";
    }
    let value = evaluate(parse(field), scope, getNumbers);
    // format_field tries int() first, so "007" prints as 7 (configmanager.py:1169).
    try {
      value = pyInt(value);
    } catch {
      // not a number: formatted as it is
    }
    const formatted = formatValue(value, spec);
    if (formatted.length > 16384) throw new PythonError("Field length exceeded during formatting");
    out += formatted;
  }
  return out;
}
