/**
 * `xcat:Node` and `xcat:Group` on the Confluent backend. The program keeps xCAT's attribute names;
 * the attribute table (contract/confluent/xcat-attribute-map.ts) says which Confluent attribute
 * holds each, and an attribute without one fails preview unless `xcat:confluentOmit` leaves it
 * out. The create/read/update/delete/adopt semantics are xCAT's (attribute-object.ts), on an
 * ObjectApi that speaks Confluent: values as xcat-values.ts translates them (secrets, `|regex|`
 * expressions, `all`), a group a node names created when missing and deleted with the last node
 * when it holds nothing (node-groups.ts).
 */
import type { ConfluentClient } from "../../client/confluent";
import { isNotFound } from "../../client/errors";
import {
  CONFLUENT_EVERYTHING_GROUP,
  confluentValueOf,
  mappingOfXcat,
  reasonWithoutCounterpart,
  XCAT_ALL_GROUP,
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
import { ensureGroups, removeEmptyGroups } from "./node-groups";
import { fromConfluent, toConfluent } from "./xcat-values";

type Spec = ResourceSpec<AttributeObjectInputs, AttributeObjectOutputs, ConfluentClient>;
type ObjectKind = "node" | "group";

const EVERYTHING = CONFLUENT_EVERYTHING_GROUP;
const ALL = XCAT_ALL_GROUP;

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
export function leaveOutAdvice(
  attribute: string,
  omitted: readonly string[],
  origin: SettingsOrigin,
): string {
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
