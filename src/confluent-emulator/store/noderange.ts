/**
 * Confluent's noderange syntax (noderange.py, 3.15.6): comma lists, `,-` to subtract, `@` to
 * intersect, parentheses, `n1-n4` / `n1:n4` / `n1..n4` ranges, `n[1-4]` brackets, `/regex` and
 * `~regex` on names, `attr=value` / `==` / `!=` / `=~` / `!~` on attribute values, and group
 * names. With a configuration every name must exist (a range's members through expand_entity,
 * noderange.py:390, the rest through :473); without one (creating nodes, core.py:823) names are
 * taken as written. Errors carry Confluent's texts; the caller prefixes "Invalid Noderange: ".
 */
import { isUnknownAttributeName } from "../../contract/confluent/attributes";
import { confluentMessages } from "../../contract/confluent/messages";

/** What noderange evaluation needs from the configuration. */
export interface NoderangeConfig {
  isNode(name: string): boolean;
  isGroup(name: string): boolean;
  groupMembers(group: string): readonly string[];
  allNodes(): readonly string[];
  /** The node's value of an attribute (own or inherited), "" when unset. */
  attributeValue(node: string, attribute: string): string;
}

export class NoderangeError extends Error {}

/** Splits "a,b,-c@d" at top level into elements and operators. */
function splitTopLevel(text: string): Array<{ op: "," | ",-" | "@"; element: string }> {
  const out: Array<{ op: "," | ",-" | "@"; element: string }> = [];
  let depth = 0;
  let current = "";
  let op: "," | ",-" | "@" = ",";
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? "";
    if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    if (depth === 0 && (c === "," || c === "@")) {
      out.push({ op, element: current });
      current = "";
      if (c === "," && text[i + 1] === "-") {
        op = ",-";
        i++;
      } else op = c === "," ? "," : "@";
      continue;
    }
    current += c;
  }
  if (depth !== 0) throw new NoderangeError("Invalid syntax");
  out.push({ op, element: current });
  return out;
}

/** `[1-4,7]` contents: numbers as strings keeping the left side's width. */
function expandNumeric(text: string): string[] {
  const result: string[] = [];
  for (const piece of text.split(",")) {
    const parts = piece.replaceAll("..", ":").replaceAll("-", ":").split(":");
    if (parts.length === 1) {
      result.push(parts[0] ?? "");
      continue;
    }
    if (parts.length > 3) throw new NoderangeError("Invalid numeric sequence");
    const [left = "", right = "", step = "1"] = parts;
    const lo = Number.parseInt(left, 10);
    const hi = Number.parseInt(right, 10);
    if (Number.isNaN(lo) || Number.isNaN(hi)) throw new NoderangeError("Invalid syntax");
    for (let n = lo; n <= hi; n += Number(step) || 1) result.push(String(n).padStart(left.length, "0"));
  }
  return result;
}

function numberChunks(name: string): string[] {
  return name.match(/[0-9]+|[^0-9]+/g) ?? [];
}

export class Noderange {
  readonly #config: NoderangeConfig | undefined;

  constructor(config?: NoderangeConfig) {
    this.#config = config;
  }

  /** The nodes a noderange names (a set; callers sort). */
  expand(text: string): Set<string> {
    if (text === "") throw new NoderangeError("Invalid syntax");
    return this.#evaluate(text);
  }

  #evaluate(text: string, filter?: Set<string>): Set<string> {
    const parts = splitTopLevel(text);
    if (parts.length === 1 && parts[0]) {
      const only = parts[0].element;
      if (only.startsWith("(") && only.endsWith(")")) return this.#evaluate(only.slice(1, -1), filter);
      return this.#expandString(only, filter);
    }
    let current = new Set<string>();
    for (const { op, element } of parts) {
      if (element === "") throw new NoderangeError("Invalid syntax");
      if (op === ",") for (const n of this.#evaluate(element)) current.add(n);
      else if (op === ",-") for (const n of this.#evaluate(element, current)) current.delete(n);
      else {
        const other = this.#evaluate(element, current);
        current = new Set([...current].filter((n) => other.has(n)));
      }
    }
    return current;
  }

  #candidates(filter?: Set<string>): readonly string[] {
    return filter ? [...filter] : (this.#config?.allNodes() ?? []);
  }

  #expandString(element: string, filter?: Set<string>): Set<string> {
    const config = this.#config;
    if (element.startsWith("/") || element.startsWith("~")) {
      if (!config) throw new NoderangeError("Verification configmanager required");
      let re: RegExp;
      try {
        re = new RegExp(element.slice(1));
      } catch (error) {
        throw new NoderangeError(String((error as Error).message));
      }
      return new Set(this.#candidates(filter).filter((n) => re.test(n)));
    }
    if (element.includes("=") || element.includes("!~")) {
      if (!config) throw new NoderangeError("Verification configmanager required");
      return new Set(this.#filterAttributes(element, this.#candidates(filter)));
    }
    const bracket = element.indexOf("[");
    if (bracket >= 0) {
      const close = element.indexOf("]", bracket);
      if (close < 0) throw new NoderangeError("Invalid syntax");
      const prefix = element.slice(0, bracket);
      const rest = element.slice(close + 1);
      const nodes = new Set<string>();
      for (const num of expandNumeric(element.slice(bracket + 1, close))) {
        for (const n of this.#expandString(prefix + num + rest)) nodes.add(n);
      }
      return nodes;
    }
    if (config) {
      if (config.isNode(element)) return new Set([element]);
      if (config.isGroup(element)) return new Set(config.groupMembers(element));
    }
    for (const delimiter of [":", "..", "-"]) {
      if (element.includes(delimiter)) return this.#expandRange(element, delimiter);
    }
    if (!config) return new Set([element]);
    throw new NoderangeError(confluentMessages.notRecognized(element));
  }

  #failOrReturn(atom: string): Set<string> {
    if (this.#config) throw new NoderangeError(`${atom} not valid`);
    return new Set([atom]);
  }

  /** noderange.py:334 expandrange, for names (not the purely numeric case). */
  #expandRange(range: string, delimiter: string): Set<string> {
    const pieces = range.split(delimiter);
    if (pieces.length % 2 !== 0) return this.#failOrReturn(range);
    const half = pieces.length / 2;
    const left = numberChunks(pieces.slice(0, half).join(delimiter));
    const right = numberChunks(pieces.slice(half).join(delimiter));
    if (left.length !== right.length) return this.#failOrReturn(range);
    let names = [""];
    for (let i = 0; i < left.length; i++) {
      const l = left[i] ?? "";
      const r = right[i] ?? "";
      if (l === r) {
        names = names.map((n) => n + l);
        continue;
      }
      if (!/^\d/.test(l) || !/^\d/.test(r)) return this.#failOrReturn(range);
      const lo = Number.parseInt(l, 10);
      const hi = Number.parseInt(r, 10);
      if (lo >= hi) return this.#failOrReturn(range);
      const next: string[] = [];
      for (const n of names) for (let k = lo; k <= hi; k++) next.push(n + String(k).padStart(l.length, "0"));
      names = next;
    }
    const result = new Set<string>();
    for (const name of names) for (const n of this.#expandEntity(name)) result.add(n);
    return result;
  }

  #expandEntity(name: string): readonly string[] {
    const config = this.#config;
    if (!config || config.isNode(name)) return [name];
    if (config.isGroup(name)) return config.groupMembers(name);
    throw new NoderangeError(confluentMessages.unknownNode(name));
  }

  /** configmanager.py:1439 filter_node_attributes. */
  #filterAttributes(expression: string, nodes: readonly string[]): string[] {
    const config = this.#config;
    if (!config) return [];
    let attribute: string;
    let match: string;
    let regex: RegExp | undefined;
    let positive = true;
    const split = (sep: string) => {
      const parts = expression.split(sep);
      if (parts.length !== 2) throw new NoderangeError(`too many values to unpack (expected 2)`);
      return parts as [string, string];
    };
    if (expression.includes("==")) [attribute, match] = split("==");
    else if (expression.includes("!=")) {
      [attribute, match] = split("!=");
      positive = false;
    } else if (expression.includes("=~")) {
      [attribute, match] = split("=~");
      regex = new RegExp(match);
    } else if (expression.includes("!~")) {
      [attribute, match] = split("!~");
      regex = new RegExp(match);
      positive = false;
    } else [attribute, match] = split("=");
    if (attribute.startsWith("secret.") || attribute.startsWith("custom.nodesecret.")) {
      throw new NoderangeError("Filter by secret attributes is not supported");
    }
    if (isUnknownAttributeName(attribute))
      throw new NoderangeError(`${attribute} is not a valid attribute name`);
    return nodes.filter((node) => {
      const value = config.attributeValue(node, attribute);
      const hit = regex ? regex.test(value) : value === match;
      return positive ? hit : !hit;
    });
  }
}

/** Confluent's natural sort of names (noderange.py:49 humanify_nodename). */
export function naturalCompare(a: string, b: string): number {
  const ca = numberChunks(a);
  const cb = numberChunks(b);
  for (let i = 0; i < Math.min(ca.length, cb.length); i++) {
    const x = ca[i] ?? "";
    const y = cb[i] ?? "";
    if (x === y) continue;
    const xn = /^\d/.test(x);
    const yn = /^\d/.test(y);
    if (xn && yn) return Number(x) - Number(y) || x.localeCompare(y);
    return x < y ? -1 : 1;
  }
  return ca.length - cb.length;
}

export function naturalSort(names: Iterable<string>): string[] {
  return [...names].sort(naturalCompare);
}
