/**
 * `xcat:Node` and `xcat:Group` on the Confluent backend. The program keeps xCAT's attribute names;
 * the attribute table (contract/confluent/xcat-attribute-map.ts) says which Confluent attribute
 * holds each, and an attribute without one fails preview unless `xcat:confluentOmit` leaves it
 * out. The create/read/update/delete/adopt semantics are xCAT's (attribute-object.ts), on an
 * ObjectApi that speaks Confluent:
 *
 * - Confluent never returns a secret (`{"isset": true}`): a set secret reads as the value the
 *   program declares, an unset one as absent, so drift on a secret means "not set any more".
 * - A group value given as xCAT's `|pattern|replacement|` is stored as the Confluent expression it
 *   translates to; it reads back as the program's value while Confluent holds that expression.
 * - Node `groups`: xCAT's `all` is Confluent's `everything`, which every node is in and which
 *   Confluent keeps last; a group a node names is created (empty) when missing, as xCAT has it
 *   exist as soon as a node names it, and deleted with the last node when it holds nothing.
 */

import type { ConfluentClient, ConfluentValue, NodeAttributes } from "../../client/confluent";
import { isNotFound } from "../../client/errors";
import {
  type AttributeMapping,
  CONFLUENT_EVERYTHING_GROUP,
  confluentValueOf,
  mappingOfConfluent,
  mappingOfXcat,
  reasonWithoutCounterpart,
  XCAT_ALL_GROUP,
  xcatValueOf,
} from "../../contract/confluent/xcat-attribute-map";
import {
  type AttributeObjectInputs,
  type AttributeObjectOutputs,
  attributeObjectSpec,
  type ObjectApi,
} from "../attribute-object";
import { isSecretAttribute } from "../attributes";
import { processSettings } from "../process-settings";
import { sayLine } from "../provider-lines";
import { groupSpec } from "../resources/group";
import { nodeSpec } from "../resources/node";
import { howToSet, type SettingsOrigin, settingName } from "../setting-advice";
import type { CheckOutcome, ResourceSpec } from "../spec";
import { type InputFailure, isUnknown } from "../validation";

type Spec = ResourceSpec<AttributeObjectInputs, AttributeObjectOutputs, ConfluentClient>;
type ObjectKind = "node" | "group";

const EVERYTHING = CONFLUENT_EVERYTHING_GROUP;
const ALL = XCAT_ALL_GROUP;

/** What a read reports for a set secret the program does not declare. */
const SET_ELSEWHERE = "(set on Confluent)";

/** xCAT attribute values → the Confluent attributes to send ("" clears, sent as null). */
function toConfluent(attributes: Readonly<Record<string, string>>): Record<string, ConfluentValue> {
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
function fromConfluent(
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

/** The groups a node names that Confluent lacks, created empty before the node names them. */
async function ensureGroups(client: ConfluentClient, attributes: Readonly<Record<string, ConfluentValue>>) {
  const named = Array.isArray(attributes.groups) ? (attributes.groups as string[]) : [];
  if (named.length === 0) return;
  const existing = new Set(await client.groups.list());
  for (const group of named.filter((name) => !existing.has(name))) {
    sayLine(`pulumi-xcat: creating the Confluent group '${group}', which a node names`);
    await client.groups.create(group, {});
  }
}

/** After a node is gone: its groups that now hold no node and no attribute go too (see above). */
async function removeEmptyGroups(client: ConfluentClient, groups: readonly string[]): Promise<void> {
  for (const group of groups.filter((name) => name !== EVERYTHING)) {
    const attributes = await client.groups.get(group).catch((error: unknown) => {
      if (isNotFound(error)) return undefined;
      throw error;
    });
    if (!attributes) continue;
    const members = attributes.get("nodes")?.value;
    const holdsNodes = Array.isArray(members) && members.length > 0;
    if (!holdsNodes && [...attributes.keys()].every((name) => name === "nodes"))
      await client.groups.delete(group);
  }
}

function objectApi(client: ConfluentClient, kind: ObjectKind, declared: Record<string, string>): ObjectApi {
  const read = (name: string) => (kind === "node" ? client.nodes.get(name) : client.groups.get(name));
  const get = async (name: string) => fromConfluent(await read(name), declared);
  return {
    get,
    async create(name, attributes) {
      const sent = toConfluent(attributes);
      if (kind === "node") {
        await ensureGroups(client, sent);
        await client.nodes.create(name, sent);
      } else {
        await client.groups.create(name, sent);
      }
    },
    reportAfterCreate: (name) => get(name),
    async update(name, attributes) {
      const sent = toConfluent(attributes);
      if (kind === "node") {
        await ensureGroups(client, sent);
        await client.nodes.update(name, sent);
      } else {
        await client.groups.update(name, sent);
      }
    },
    reportAfterUpdate: (name) => get(name),
    async delete(name) {
      if (kind === "node") {
        let groups: string[] = [];
        try {
          const value = (await client.nodes.get(name)).get("groups")?.value;
          groups = Array.isArray(value) ? value.map(String) : [];
          await client.nodes.delete(name);
        } catch (error) {
          if (isNotFound(error)) return;
          throw error;
        }
        await removeEmptyGroups(client, groups);
        return;
      }
      // Deleting a group silently takes it from its members (real-confluent.md item 8): only
      // a group without members goes; one that still has members keeps them and says so.
      const members = await client.nodes.list(name).catch((error: unknown) => {
        if (isNotFound(error)) return [];
        throw error;
      });
      if (members.length > 0) {
        const managed = Object.keys(declared);
        if (managed.length > 0)
          await client.groups.update(name, toConfluent(Object.fromEntries(managed.map((key) => [key, ""]))));
        sayLine(
          `pulumi-xcat: the Confluent group '${name}' still has ${members.length} member(s); its attributes ` +
            "were cleared, the group stays so that the nodes keep it",
        );
        return;
      }
      await client.groups.delete(name);
    },
    knowsAttribute: async (attribute) => mappingOfXcat(attribute) !== undefined,
  };
}

/** The attributes of a check that Confluent cannot hold, and those left out by `xcat:confluentOmit`. */
function confluentProblems(
  kind: string,
  what: string,
  inputs: AttributeObjectInputs,
  name: string,
): { failures: InputFailure[]; omitted: string[] } {
  const { confluentOmit, origin } = processSettings();
  const omit = new Set(confluentOmit);
  const failures: InputFailure[] = [];
  const omitted: string[] = [];
  for (const [map, property] of [
    [inputs.attributes, "attributes"],
    [inputs.secretAttributes, "secretAttributes"],
  ] as const) {
    for (const [attribute, value] of Object.entries(map)) {
      if (omit.has(attribute)) {
        omitted.push(attribute);
        continue;
      }
      const where = `${kind} '${name}': attribute '${attribute}'`;
      const mapping = mappingOfXcat(attribute);
      if (!mapping) {
        failures.push({
          // A secret's failure names no property: the engine would print its value (make-provider.ts).
          property: property === "secretAttributes" || isSecretAttribute(attribute) ? "" : property,
          reason:
            `${where} has no counterpart on Confluent: ${reasonWithoutCounterpart(attribute)}. To leave it out, ` +
            leaveOutAdvice(attribute, confluentOmit, origin),
        });
        continue;
      }
      if (isUnknown(value)) continue;
      const translated = confluentValueOf(mapping, value);
      if ("problem" in translated) {
        failures.push({
          property: property === "secretAttributes" ? "" : property,
          reason: `${where} cannot be set on Confluent's ${mapping.confluent}: ${translated.problem}`,
        });
      }
    }
  }
  if (what === "group" && name === ALL) {
    failures.push({
      property: "name",
      reason:
        `${kind} 'all': xCAT's group 'all' is Confluent's '${EVERYTHING}', which holds every node and ` +
        "server-wide defaults; set those attributes on a group of its own on the Confluent stack",
    });
  }
  return { failures, omitted };
}

/**
 * How to leave an attribute out for the resource's provider: the whole new stack config list
 * (`config set` replaces it), or the entry to add to an explicit provider's confluentOmit input.
 */
function leaveOutAdvice(attribute: string, omitted: readonly string[], origin: SettingsOrigin): string {
  return origin.explicitProvider === undefined
    ? howToSet("confluentOmit", [...omitted, attribute].join(","), origin)
    : howToSet("confluentOmit", `'${attribute}'`, origin, { add: true });
}

function without(map: Readonly<Record<string, string>>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(map).filter(([name]) => !names.includes(name)));
}

/** The managed attributes of inputs or recorded outputs, in xCAT's names. */
function declaredOf(inputs: Partial<AttributeObjectInputs>): Record<string, string> {
  const groups = inputs.groups;
  return {
    ...(Array.isArray(groups) ? { groups: groups.join(",") } : {}),
    ...(inputs.attributes ?? {}),
    ...(inputs.secretAttributes ?? {}),
  };
}

function confluentSpec(
  xcat: ResourceSpec<AttributeObjectInputs, AttributeObjectOutputs>,
  kind: ObjectKind,
  fields: Parameters<typeof attributeObjectSpec>[0]["fields"],
): Spec {
  const what = kind;
  /** The xCAT semantics on a Confluent ObjectApi that knows what the resource declares. */
  const withDeclared = (declared: Record<string, string>): Spec =>
    attributeObjectSpec<ConfluentClient>({
      kind: xcat.kind,
      objectType: kind,
      what,
      idInput: "name",
      idProblems: () => [],
      fields,
      // Confluent merges a create into an object that exists (real-confluent.md item 2): read first.
      createMode: "check-first",
      unsetIsConflict: kind === "node",
      api: (client) => objectApi(client, kind, declared),
    });

  return {
    kind: xcat.kind,
    check(news): CheckOutcome<AttributeObjectInputs> {
      const outcome = xcat.check(news);
      if ("failures" in outcome) return outcome;
      const name = isUnknown(outcome.inputs.name) ? "(known after apply)" : String(outcome.inputs.name);
      const { failures, omitted } = confluentProblems(xcat.kind, what, outcome.inputs, name);
      if (failures.length > 0) return { failures };
      if (omitted.length > 0) {
        const setting = settingName("confluentOmit", processSettings().origin);
        sayLine(`${xcat.kind} '${name}': left out on Confluent (${setting}): ${omitted.join(", ")}`);
      }
      return {
        inputs: {
          ...outcome.inputs,
          attributes: without(outcome.inputs.attributes, omitted),
          secretAttributes: without(outcome.inputs.secretAttributes, omitted),
        },
      };
    },
    replaceKeys: (olds, news) => xcat.replaceKeys(olds, news),
    hasChanges: (olds, news) => xcat.hasChanges(olds, news),
    create: (client, inputs, context) => withDeclared(declaredOf(inputs)).create(client, inputs, context),
    adoptChanges: (client, inputs) =>
      withDeclared(declaredOf(inputs)).adoptChanges?.(client, inputs) ?? Promise.resolve(undefined),
    read: (client, id, olds) => withDeclared(declaredOf(olds)).read(client, id, olds),
    update: (client, id, olds, news, context) =>
      withDeclared(declaredOf(news)).update(client, id, olds, news, context),
    delete: (client, id, olds, context) => withDeclared(declaredOf(olds)).delete(client, id, olds, context),
  };
}

/** The groups field as the xCAT Node spec has it (a list kept in order). */
const NODE_FIELDS: Parameters<typeof attributeObjectSpec>[0]["fields"] = [
  {
    input: "groups",
    attribute: "groups",
    required: true,
    problems: () => [],
    toAttribute: (value) => (Array.isArray(value) ? value.join(",") : String(value)),
    fromAttribute: (value) => value.split(",").filter((group) => group.length > 0),
  },
];

export const confluentNodeSpec = confluentSpec(nodeSpec, "node", NODE_FIELDS);
export const confluentGroupSpec = confluentSpec(groupSpec, "group", []);
