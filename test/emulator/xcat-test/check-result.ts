/**
 * What `restapitest -o EXPECTED -O OP` compares (/tmp/xc/xCAT-test/restapitest:411-545:
 * check_result, parse_json, find_key, transf_hash), reproduced over text so that a case's
 * `cmdcheck:` passes or fails as it did with the restapitest that evaluated it (see
 * ./restapitest.ts for when that is). Both sides go through restapitest's own reader, which is
 * not a JSON parser but a cascade of regular expressions (parse_json, :233-385); its quirks are
 * kept on purpose:
 * - a value is read as the first `"non-space"` run, and a value with a space or an unclosed quote
 *   becomes the key's own name (Perl's `$1` keeps the last successful match, :364-365);
 * - `a:b:c` paths are built by find_key (:515-534), which does not reset the path between two
 *   top-level keys whose values are objects, so the second gets the first's prefix;
 * - a comma inside a value splits the value (:326-345).
 * Perl iterates hash keys in a random order; here keys keep the order they were read in.
 */

/** What parse_json returns: a hash, or a false value (`""`) when no rule applies. */
type Parsed = Map<string, Parsed | string> | string;

/**
 * `restapitest -o EXPECTED -O OP` against `body` (the saved result of the last request): 0 when
 * the check holds, 1 otherwise (check_result, :411-510).
 */
export function checkResult(expectedText: string, operator: string, body: string): number {
  const expected = paths(parseJson(expectedText))[0] ?? "";
  const actuals = paths(parseJson(body));
  const flags = new Map<string, "eq" | "match" | "none">();
  perlSplit(expected, ":").forEach((want, position) => {
    for (const actual of actuals) {
      if (flags.get(actual) === "none") continue;
      // A missing field is Perl's undef, which compares as "".
      const have = perlSplit(actual, ":")[position] ?? "";
      if (want === "restapiarray" && have === "restapiarray") continue;
      if (want === have || want === "ANY") flags.set(actual, "eq");
      else if (perlMatch(have, want)) flags.set(actual, "match");
      else flags.set(actual, "none");
    }
  });
  const seen = (kind: "eq" | "match") => [...flags.values()].includes(kind);
  if (operator === "!=") return seen("eq") ? 1 : 0;
  if (operator === "==") return seen("eq") ? 0 : 1;
  if (operator === "=~") return seen("match") ? 0 : 1;
  if (operator === "!=~") return seen("match") ? 1 : 0;
  // No operator matched: the sub ends without a return value, which the shell sees as 0.
  return 0;
}

/** parse_json (:233-385). */
export function parseJson(input: string): Parsed {
  if (!input.includes(":")) {
    const list = /^\[(.*)\]/s.exec(input);
    if (!list) return "";
    const content = list[1] ?? "";
    const hash = new Map<string, Parsed | string>();
    for (const item of perlSplit(content, ",")) {
      // :379-380: an item without quotes reuses the last match's $1, the list's content.
      const quoted = /"(.*)"/.exec(item);
      hash.set(quoted ? (quoted[1] ?? "") : content, "restapiarray");
    }
    return hash;
  }
  const wholeList = /^\[(.*)\]$/s.exec(input);
  if (wholeList) return parseJson(wholeList[1] ?? "");
  if (/^"(\S+?)":\{\S+\},/.test(input)) return merged(input.replace("},", "}%"), "%");
  if (/^\{\S+\},\{\S+\}/.test(input) && !input.includes("]")) return merged(input.replace("},{", "}%{"), "%");
  const object = /^\s*\{(.*)\}\s*$/s.exec(input);
  if (object) return parseJson(object[1] ?? "");
  if (/\],"\S+":/.test(input)) return merged(input.replace(/\],"(\S+)":/, ']%"$1":'), "%");
  if (input.includes(",") && !input.includes("}")) return merged(input, ",");
  const pair = /"(\S+?)":(.+)/s.exec(input);
  if (pair) {
    const key = pair[1] ?? "";
    const value = pair[2] ?? "";
    if (value.includes("{")) return new Map([[key, parseJson(value)]]);
    const quoted = /"(\S+)"/.exec(value);
    return new Map([[key, quoted ? (quoted[1] ?? "") : key]]);
  }
  return "";
}

/** Splits at `separator`, parses each part and merges the hashes (later keys win). */
function merged(input: string, separator: string): Parsed {
  const hash = new Map<string, Parsed | string>();
  for (const part of perlSplit(input, separator)) {
    const parsed = parseJson(part);
    if (parsed instanceof Map) for (const [k, v] of parsed) hash.set(k, v);
  }
  return hash;
}

/** transf_hash/find_key (:515-545): `key:key:value` paths, with find_key's prefix carry-over. */
export function paths(parsed: Parsed): string[] {
  const out: string[] = [];
  let entry = "";
  const walk = (value: Parsed) => {
    if (value instanceof Map) {
      for (const [key, inner] of value) {
        const head = entry;
        entry += `${key}:`;
        walk(inner);
        if (entry === "") entry = head;
      }
    } else {
      entry += value;
      out.push(entry);
      entry = "";
    }
  };
  walk(parsed);
  return out;
}

/** Perl's `split /sep/` with a literal separator: trailing empty fields are dropped. */
function perlSplit(text: string, separator: string): string[] {
  const parts = text.split(separator);
  while (parts.length > 0 && parts.at(-1) === "") parts.pop();
  return parts;
}

/** `$text =~ $pattern` with the expected text used as a regular expression (:456). */
function perlMatch(text: string, pattern: string): boolean {
  try {
    return new RegExp(pattern).test(text);
  } catch {
    return false;
  }
}
