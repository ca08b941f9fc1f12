/**
 * Values between the program's xCAT names and what Confluent stores and reports, for every kind
 * on the Confluent backend (Node, Group, NodeSet): the attribute table
 * (contract/confluent/xcat-attribute-map.ts) names the Confluent attribute of each, and
 *
 * - Confluent never returns a secret (`{"isset": true}`): a set secret reads as the value the
 *   program declares, an unset one as absent, so drift on a secret means "not set any more";
 * - a group value given as xCAT's `|pattern|replacement|` is stored as the Confluent expression it
 *   translates to, and reads back as the program's value while Confluent holds that expression;
 * - `groups`: xCAT's `all` is Confluent's `everything`, which every node is in and which
 *   Confluent keeps last: never sent, read back where the program has it.
 */
import type { ConfluentValue, NodeAttributes } from "../../client/confluent";
import {
  type AttributeMapping,
  CONFLUENT_EVERYTHING_GROUP,
  confluentValueOf,
  mappingOfConfluent,
  mappingOfXcat,
  XCAT_ALL_GROUP,
  xcatValueOf,
} from "../../contract/confluent/xcat-attribute-map";

const EVERYTHING = CONFLUENT_EVERYTHING_GROUP;
const ALL = XCAT_ALL_GROUP;

/** What a read reports for a set secret the program does not declare. */
const SET_ELSEWHERE = "(set on Confluent)";

/** xCAT attribute values → the Confluent attributes to send ("" clears, sent as null). */
export function toConfluent(attributes: Readonly<Record<string, string>>): Record<string, ConfluentValue> {
  const out: Record<string, ConfluentValue> = {};
  for (const [name, value] of Object.entries(attributes)) {
    const mapping = mappingOfXcat(name);
    // check() refused the rest; reaching here is a bug, not something to drop.
    if (!mapping)
      throw new Error(`pulumi-xcat: no Confluent attribute for '${name}' (check should have refused it)`);
    if (value === "") {
      out[mapping.confluent] = null;
    } else if (mapping.xcat === "groups") {
      out.groups = value.split(",").filter((group) => group !== "" && group !== ALL);
    } else {
      const translated = confluentValueOf(mapping, value);
      if ("problem" in translated) throw new Error(`pulumi-xcat: ${name}: ${translated.problem}`);
      out[mapping.confluent] = translated.value;
    }
  }
  return out;
}

/** What Confluent reports, in xCAT's names and words, matched against what the program declares. */
export function fromConfluent(
  reported: NodeAttributes,
  declared: Readonly<Record<string, string>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, attribute] of reported) {
    const mapping = mappingOfConfluent(name);
    if (!mapping) continue;
    const value = xcatValue(mapping, attribute, declared[mapping.xcat]);
    if (value !== undefined && value !== "") out[mapping.xcat] = value;
  }
  return out;
}

function xcatValue(
  mapping: AttributeMapping,
  attribute: NodeAttributes extends Map<string, infer A> ? A : never,
  declared: string | undefined,
): string | undefined {
  if (mapping.writeOnly) {
    if (attribute.isset !== true) return undefined;
    return declared ?? SET_ELSEWHERE;
  }
  if (attribute.expression !== undefined && attribute.inheritedfrom === undefined) {
    // A group's expression: the program's value when it translates to exactly this one.
    const translated = declared === undefined ? undefined : confluentValueOf(mapping, declared);
    return translated && "value" in translated && translated.value === attribute.expression
      ? declared
      : `{${attribute.expression}}`;
  }
  const value = attribute.value;
  if (value === undefined || value === null) return undefined;
  if (mapping.xcat === "groups" && Array.isArray(value)) return groupsFrom(value.map(String), declared);
  return xcatValueOf(mapping, String(value));
}

/** Confluent's group list as xCAT's: without `everything`, with `all` where the program has it. */
function groupsFrom(reported: readonly string[], declared: string | undefined): string {
  const groups = reported.filter((group) => group !== EVERYTHING);
  const wanted = declared?.split(",") ?? [];
  const at = wanted.indexOf(ALL);
  if (at >= 0) groups.splice(Math.min(at, groups.length), 0, ALL);
  return groups.join(",");
}
