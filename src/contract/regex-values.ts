/**
 * xCAT's regular-expression attribute values: a value `/pattern/replacement/` or
 * `|pattern|replacement|` (on a group's row, or the node's own) gives each node its own value,
 * worked out from the node's name whenever xCAT reads node attributes (perl-xCAT/xCAT/Table.pm
 * sub transRegexAttrs, 2647-2704 at xcat2/xcat-core 7733d16; getNodeAttribs applies it to the
 * value inheritance chose, 2800-2815, and drops the attribute when it comes out empty). Shared by
 * the emulator, which expands them when it derives objects, by `pulumi-xcat review`, which works
 * out what a group change does to each member, and by the policy pack, which compares the
 * addresses nodes will hold.
 *
 * What transRegexAttrs does, and this port with it:
 * - `/pattern/replacement/`: the node name with the first match of `pattern` replaced by
 *   `replacement`, taken literally (`/\z/-bmc/` appends `-bmc`; a `$1` stays `$1`).
 * - `|pattern|replacement|` without brackets in `replacement`: the same substitution.
 * - `|pattern|replacement|` with brackets: each bracket, in turn, is evaluated as Perl under
 *   `use integer` with the match's captures as `$1`, `$2`, … (regex-arithmetic.ts), then the
 *   match in the node name is replaced by the result (`|node(\d+)|10.0.0.($1+0)|` on node07 is
 *   10.0.0.7; text of the node name outside the match stays).
 * - `|replacement|` alone (the "easy" form, xCAT 2.8.1): the pattern is made from the node name,
 *   one `[\D0]*(\d+)` per number in it, then `.*$`.
 * - A pattern that does not match the node name gives the node name itself.
 */
import { evaluatePerlInteger } from "./regex-arithmetic";

/** What xCAT holds for a node from an attribute value (see the module comment). */
export type NodeValue =
  | { readonly kind: "value"; readonly value: string }
  /** The expansion came out empty: xCAT drops the attribute (Table.pm 2809-2814). */
  | { readonly kind: "empty" }
  /** A construct this port does not evaluate (a Perl-only regex feature or operator): not guessed. */
  | { readonly kind: "unknown"; readonly reason: string };

const SLASH_FORM = /^\/[^/]*\/[^/]*\/$/;
const BAR_FORM = /^\|.*\|$/;

/**
 * What xCAT gives `node` for an attribute whose stored value is `value` (a plain value is itself).
 *
 * @example
 * nodeValue("|\\D+(\\d+)|10.0.0.($1+10)|", "node5"); // { kind: "value", value: "10.0.0.15" }
 * nodeValue("/\\z/-bmc/", "node07"); // { kind: "value", value: "node07-bmc" }
 */
export function nodeValue(value: string, node: string): NodeValue {
  let result: string | NodeValue;
  if (SLASH_FORM.test(value)) {
    const inner = value.slice(1, -1);
    const slash = inner.indexOf("/");
    result = substitute(node, inner.slice(0, slash), () => inner.slice(slash + 1));
  } else if (BAR_FORM.test(value)) {
    result = expandBarForm(value.slice(1, -1), node);
  } else {
    return { kind: "value", value };
  }
  if (typeof result !== "string") return result;
  return result === "" ? { kind: "empty" } : { kind: "value", value: result };
}

/**
 * The value xCAT shows for `node`: the expansion, "" when xCAT drops the attribute, and `value`
 * itself where the expansion uses what this port does not evaluate.
 *
 * @example expandTemplate("|\\D+(\\d+)|10.0.0.($1+10)|", "node5") // "10.0.0.15"
 */
export function expandTemplate(value: string, node: string): string {
  const result = nodeValue(value, node);
  if (result.kind === "value") return result.value;
  return result.kind === "empty" ? "" : value;
}

function expandBarForm(inner: string, node: string): string | NodeValue {
  // split('\|', $exp, 2): the pattern ends at the first bar; without one, the easy form.
  if (inner === "") return unknown("an empty |…| value");
  const bar = inner.indexOf("|");
  const pattern = bar < 0 ? easyPattern(node) : inner.slice(0, bar);
  const replacement = bar < 0 ? inner : inner.slice(bar + 1);
  const regex = perlRegExp(pattern);
  if (!(regex instanceof RegExp)) return regex;
  const match = regex.exec(node);
  if (!match) return node;
  let text = replacement;
  let bracket = firstBracket(text);
  if (bracket === undefined) return spliceMatch(node, match, replacement);
  const before = node.slice(0, match.index);
  const after = node.slice(match.index + match[0].length);
  while (bracket !== undefined) {
    // `$value = $node; $value =~ s/$parts[0]/$curr/;` then reval: the node name's text around
    // the match is part of what Perl evaluates.
    const evaluated = evaluatePerlInteger(before + bracket.text + after, match);
    if (evaluated === undefined)
      return unknown(`the Perl expression ${before + bracket.text + after} for node ${node}`);
    text = bracket.prefix + evaluated + bracket.rest;
    bracket = firstBracket(text);
  }
  return spliceMatch(node, match, text);
}

/** The easy form's pattern (Table.pm 2662-2668): one `[\D0]*(\d+)` per number in the node name, then `.*$`. */
function easyPattern(node: string): string {
  const numbers = node.match(/[\D0]*(\d+)/g) ?? [];
  return "[\\D0]*(\\d+)".repeat(numbers.length) + ".*$";
}

/** `$node =~ s/pattern/replacement/` with the replacement taken literally (Perl does not re-interpolate it). */
function substitute(node: string, pattern: string, replacement: () => string): string | NodeValue {
  const regex = perlRegExp(pattern);
  if (!(regex instanceof RegExp)) return regex;
  const match = regex.exec(node);
  return match ? spliceMatch(node, match, replacement()) : node;
}

function spliceMatch(node: string, match: RegExpExecArray, replacement: string): string {
  return node.slice(0, match.index) + replacement + node.slice(match.index + match[0].length);
}

/**
 * The first balanced `(...)` after a run of other characters, as Text::Balanced's
 * extract_bracketed with the delimiters `()` and the prefix pattern `[^()]*` finds it (Table.pm
 * 2676-2677; a backslash escapes the next character).
 */
function firstBracket(text: string): { prefix: string; text: string; rest: string } | undefined {
  const start = /^[^()]*/.exec(text)?.[0].length ?? 0;
  if (text[start] !== "(") return undefined;
  let depth = 0;
  for (let index = start; index < text.length; index++) {
    const character = text[index];
    if (character === "\\") {
      index++;
      continue;
    }
    if (character === "(") depth++;
    else if (character === ")" && --depth === 0)
      return {
        prefix: text.slice(0, start),
        text: text.slice(start, index + 1),
        rest: text.slice(index + 1),
      };
  }
  return undefined;
}

// Escapes that mean the same in Perl and JavaScript regular expressions; \z, \A and \Z are
// translated; any other letter escape (\Q, \u, \v, \e, \p, \K, \G, …) differs and is not guessed.
const SAME_ESCAPES = new Set([..."dDwWsSbBnrtf123456789"]);

/** The JavaScript RegExp that matches as the Perl pattern does, or unknown when they could differ. */
function perlRegExp(pattern: string): RegExp | NodeValue {
  // An empty pattern in Perl's s/// reuses the last successful pattern.
  if (pattern === "") return unknown("an empty pattern");
  if (pattern.includes("[:") || pattern.includes("{,") || pattern.includes("(?#"))
    return unknown(`the Perl-only pattern ${pattern}`);
  let translated = "";
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index] as string;
    if (character !== "\\") {
      translated += character;
      continue;
    }
    const next = pattern[++index];
    if (next === undefined) return unknown(`the pattern ${pattern}`);
    // Without the m flag JavaScript's $ is the end of the text, as \z is; node names hold no line break.
    if (next === "z") translated += "$";
    else if (next === "A") translated += "^";
    else if (next === "Z") translated += "(?=\\n?$)";
    else if (next === "x" && /^[0-9a-fA-F]{2}$/.test(pattern.slice(index + 1, index + 3)))
      translated += "\\x";
    else if (/[A-Za-z0-9]/.test(next) && !SAME_ESCAPES.has(next))
      return unknown(`the Perl escape \\${next} in ${pattern}`);
    else translated += `\\${next}`;
  }
  try {
    return new RegExp(translated);
  } catch {
    return unknown(`the pattern ${pattern}`);
  }
}

function unknown(what: string): NodeValue {
  return { kind: "unknown", reason: `${what} is not evaluated here` };
}
