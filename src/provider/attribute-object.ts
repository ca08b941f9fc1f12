/**
 * The spec shared by xCAT's attribute-map objects (node, group, osimage, network, policy): an
 * object named by its id, a few typed inputs that map to attributes (a node's `groups`, a
 * network's `net` and `mask`), and a free map of further attributes, of which only the declared
 * ones are managed.
 *
 * Semantics (issue #5): attributes not in the program are left alone; removing one clears it;
 * read reports the managed attributes' current values so drift shows attribute by attribute;
 * creating over an existing object takes it when it already matches, fails naming `adopt` when it
 * differs, and with `adopt: true` makes it match; delete of a missing object succeeds.
 */
import type { XcatClient } from "../client";
import { isAlreadyExists, isNotFound, isXcatError } from "../client/errors";
import type { ObjectType } from "../contract/schema";
import { attributeValueProblems } from "./attribute-values";
import {
  adoptionChanges,
  attributeChanges,
  differingAttributes,
  isSecretAttribute,
  managedValues,
  publicAttributes,
  sameAttributes,
} from "./attributes";
import { sayLine } from "./provider-lines";
import { failedConditions, refusedWriteMessage, refusedWriteOutcome } from "./refused-write";
import {
  ADOPT_ADVICE,
  type CheckOutcome,
  type CommonInputs,
  PartialFailureError,
  ResourceConflictError,
  type ResourceSpec,
} from "./spec";
import {
  attributeMapProblems,
  booleanProblems,
  connectionProblems,
  failuresOn,
  type InputFailure,
  isPlainObject,
  isUnknown,
} from "./validation";
import {
  attributesDecidedByGroups,
  KNOWN_ONLY_BEFORE_2_18,
  unknownOnServerReason,
  versionedAttribute,
} from "./versioned-attributes";

/** The operations of one object type, as the client offers them. */
export interface ObjectApi {
  get(name: string): Promise<Record<string, string>>;
  /** Every object of the type in one request (absent for types xCAT cannot list so). */
  getAll?(): Promise<ReadonlyMap<string, Record<string, string>>>;
  /** Creates the object; rejects with an already-exists error when it exists. */
  create(name: string, attributes: Record<string, string>): Promise<void>;
  /** What xCAT reports for an object this process just created with `attributes` (a read, or known without one). */
  reportAfterCreate(name: string, attributes: Record<string, string>): Promise<Record<string, string>>;
  update(name: string, attributes: Record<string, string>): Promise<void>;
  /**
   * What xCAT reports for an object this process just updated with `attributes` (a read, or known
   * without one from what it reported before, `recorded`, and the values the resource set before).
   */
  reportAfterUpdate(
    name: string,
    attributes: Record<string, string>,
    before: { recorded: Record<string, string> | undefined; previous: Record<string, string> },
  ): Promise<Record<string, string>>;
  /** Deletes the object; resolves when it does not exist. */
  delete(name: string): Promise<void>;
  /** Whether the server's xCAT knows the attribute for this type (undefined: cannot tell); reads only. */
  knowsAttribute(attribute: string): Promise<boolean | undefined>;
}

/** A typed input that is stored as one xCAT attribute (a node's `groups`, a network's `net`). */
export interface AttributeField {
  /** The input property, e.g. "groups". */
  readonly input: string;
  /** The xCAT attribute it is stored in, e.g. "groups". */
  readonly attribute: string;
  readonly required: boolean;
  problems(value: unknown): string[];
  /** Input value → attribute value. */
  toAttribute(value: unknown): string;
  /** Attribute value → input value. */
  fromAttribute(value: string): unknown;
}

/** Normalized inputs of an attribute object. */
export interface AttributeObjectInputs extends CommonInputs {
  readonly [field: string]: unknown;
  readonly attributes: Record<string, string>;
  readonly secretAttributes: Record<string, string>;
  readonly adopt: boolean;
}

/** Outputs: the inputs, the object's `name`, and what xCAT reports for it (no secrets). */
export interface AttributeObjectOutputs extends AttributeObjectInputs {
  readonly name: string;
  readonly allAttributes: Record<string, string>;
}

export interface AttributeObjectDefinition<Client extends object = XcatClient> {
  readonly kind: string;
  /** The object type whose attribute names are valid (a group takes node attributes). */
  readonly objectType: ObjectType;
  /** Words for messages: "node", "OS image", … */
  readonly what: string;
  /** The input that holds the object's name, its id: "name", or "priority" for policies. */
  readonly idInput: string;
  idProblems(value: unknown): string[];
  readonly fields: readonly AttributeField[];
  /**
   * How an object comes into being: "create" POSTs and learns of an existing object from the
   * already-exists error; "check-first" reads before creating, for types whose create would
   * silently overwrite (policy) or that have no create at all (group: its PUT defines it).
   */
  readonly createMode: "create" | "check-first";
  api(client: Client): ObjectApi;
  /** Extra cleanup after the object's attributes are gone (a group's definition row). */
  afterDelete?(client: Client, name: string): Promise<void>;
  /** Deletes by clearing the managed attributes (groups have no DELETE). */
  readonly deleteByClearing?: boolean;
  /**
   * Whether an attribute the existing object does not set counts as a conflict on create. Not
   * for groups: a group exists as soon as a node names it, with nothing set, and declaring its
   * attributes takes nothing over.
   */
  readonly unsetIsConflict: boolean;
  /** Problems that involve several inputs (a network's net and mask together). */
  crossProblems?(news: Readonly<Record<string, unknown>>): InputFailure[];
  /** Inputs kept as given beside the attributes, with their problems (a node's `nameServices`). */
  readonly extraInputs?: ReadonlyArray<{ readonly input: string; problems(value: unknown): string[] }>;
  /**
   * Runs after a create or update wrote the object: `before` is what the managed attributes were
   * (absent for a new object), `after` what they are now (a node's name services).
   */
  afterWrite?(
    client: Client,
    name: string,
    before: Readonly<Record<string, string>> | undefined,
    after: Readonly<Record<string, string>>,
    inputs: AttributeObjectInputs,
  ): Promise<void>;
  /**
   * Says, at check, what {@link afterWrite} will do for this create (`before` absent) or update,
   * from the managed attributes before and after (a node's name services in `pulumi preview`).
   */
  announceWrite?(
    client: Client,
    name: string,
    before: Readonly<Record<string, string>> | undefined,
    after: Readonly<Record<string, string>>,
    inputs: AttributeObjectInputs,
  ): Promise<void>;
  /** Runs before the object is deleted (a node's DNS and DHCP entries go first). */
  beforeDelete?(client: Client, name: string, olds: AttributeObjectInputs): Promise<void>;
  /**
   * What of `reported` the object holds itself, where xCAT reports more than that, for comparing
   * with the `managed` attributes the program declares: a node's postscripts without the
   * xcatdefaults scripts lsdef puts in front. Absent: compared as reported.
   */
  ownReported?(
    client: Client,
    reported: Record<string, string>,
    managed: readonly string[],
  ): Promise<Record<string, string>>;
  /**
   * For `Resource.get` and `pulumi import` (no program to say what is managed): what the object
   * declares itself, not what it inherits (a node's groups' values, xCAT's defaults). Absent:
   * everything reported.
   */
  importedAttributes?(
    client: Client,
    name: string,
    reported: Record<string, string>,
  ): Promise<Record<string, string>>;
}

/** The attributes the resource manages, with the typed fields in their xCAT form. */
function desiredAttributes(
  definition: AttributeObjectDefinition<object>,
  inputs: AttributeObjectInputs,
): Record<string, string> {
  const desired: Record<string, string> = {};
  for (const field of definition.fields) {
    const value = inputs[field.input];
    if (value !== undefined) desired[field.attribute] = field.toAttribute(value);
  }
  return { ...desired, ...inputs.attributes, ...inputs.secretAttributes };
}

/** Builds the spec of an attribute-map object type from its definition. */
export function attributeObjectSpec<Client extends object = XcatClient>(
  definition: AttributeObjectDefinition<Client>,
): ResourceSpec<AttributeObjectInputs, AttributeObjectOutputs, Client> {
  const fieldAttributes = Object.fromEntries(
    definition.fields.map((field) => [
      field.attribute,
      `is set by the '${field.input}' input, not in attributes`,
    ]),
  );

  function check(news: Readonly<Record<string, unknown>>): CheckOutcome<AttributeObjectInputs> {
    const failures: InputFailure[] = [];
    const add = (property: string, problems: readonly string[]) =>
      failures.push(...failuresOn(property, problems));

    add(definition.idInput, definition.idProblems(news[definition.idInput]));
    for (const field of definition.fields) {
      const value = news[field.input];
      if (value === undefined) {
        if (field.required) add(field.input, [`${field.input} is required for a ${definition.what}`]);
      } else if (!isUnknown(value)) add(field.input, field.problems(value));
    }
    add("attributes", [
      ...attributeMapProblems(news.attributes, "attributes", definition.objectType, fieldAttributes),
      ...attributeValueProblems(news.attributes, "attributes", definition.objectType, isUnknown),
    ]);
    add(
      "",
      attributeMapProblems(news.secretAttributes, "secretAttributes", definition.objectType, fieldAttributes),
    );
    add("adopt", booleanProblems(news.adopt, "adopt"));
    add("connection", connectionProblems(news.connection));
    for (const extra of definition.extraInputs ?? []) {
      if (!isUnknown(news[extra.input])) add(extra.input, extra.problems(news[extra.input]));
    }
    if (failures.length === 0) failures.push(...(definition.crossProblems?.(news) ?? []));

    const attributes = isPlainObject(news.attributes) ? (news.attributes as Record<string, string>) : {};
    const secretAttributes = isPlainObject(news.secretAttributes)
      ? (news.secretAttributes as Record<string, string>)
      : {};
    for (const name of Object.keys(attributes)) {
      if (name in secretAttributes)
        add("attributes", [`attributes: '${name}' is also given in secretAttributes`]);
    }
    if (failures.length > 0) return { failures };

    const inputs: Record<string, unknown> = {
      [definition.idInput]: news[definition.idInput],
      attributes,
      secretAttributes,
      adopt: news.adopt === true,
    };
    for (const field of definition.fields) {
      if (news[field.input] !== undefined) inputs[field.input] = news[field.input];
    }
    if (news.connection !== undefined) inputs.connection = news.connection;
    for (const extra of definition.extraInputs ?? []) {
      if (news[extra.input] !== undefined) inputs[extra.input] = news[extra.input];
    }
    return { inputs: inputs as AttributeObjectInputs };
  }

  function outputsFrom(
    inputs: AttributeObjectInputs,
    name: string,
    reported: Record<string, string>,
  ): AttributeObjectOutputs {
    // A value the program gave as a secret under an ordinary name (a BMC user) sits in
    // secretAttributes: it must not come back in plain text through allAttributes.
    const secretNames = Object.keys(inputs.secretAttributes ?? {});
    const shown = publicAttributes(reported);
    for (const secretName of secretNames) delete shown[secretName];
    return { ...inputs, name, allAttributes: shown };
  }

  /**
   * When `error` is xCAT refusing attributes for a failed only_if condition: reads the object
   * back and throws a failure that names what was and was not written, recording in the state
   * what the server holds (refused-write.ts). Other errors: returns, and the caller rethrows.
   */
  async function throwRefusedWrite(
    error: unknown,
    api: ObjectApi,
    name: string,
    operation: "create" | "update",
    sent: Record<string, string>,
    inputs: AttributeObjectInputs,
    previous: Record<string, string>,
  ): Promise<void> {
    if (!isXcatError(error)) return;
    const refused = failedConditions(error.messages);
    if (refused.length === 0) return;
    const reported = await getIfExists(api, name);
    const outcome = refusedWriteOutcome(sent, reported, refused);
    const message = refusedWriteMessage({
      what: definition.what,
      name,
      operation,
      refused,
      outcome,
      exists: reported !== undefined,
    });
    if (reported === undefined) throw new Error(message);
    const managedNames = new Set([
      ...Object.keys(previous),
      ...Object.keys(desiredAttributes(definition, inputs)),
    ]);
    const held = inputsFromReport(name, managedNames, reported, inputs);
    throw new PartialFailureError(message, name, outputsFrom(held, name, reported));
  }

  /**
   * The attributes a node create sends in a second request: those only the node's groups decide
   * (see {@link attributesDecidedByGroups}), when the management node may be older than 2.18,
   * which would drop them from the create without a word. Known to be 2.18 or newer: none. One
   * read per management node tells (knowsAttribute); when it cannot, two requests are right on
   * every release.
   */
  async function deferredUntilCreated(api: ObjectApi, desired: Record<string, string>): Promise<string[]> {
    if (definition.objectType !== "node") return [];
    const later = attributesDecidedByGroups(desired);
    if (later.length === 0) return [];
    return (await api.knowsAttribute(KNOWN_ONLY_BEFORE_2_18)) === false ? [] : later;
  }

  /**
   * The second request of a create (see {@link deferredUntilCreated}). The object exists by now:
   * a failure records it with what the first request set, so the next up finishes it instead of
   * finding an object it did not make.
   */
  async function finishCreate(
    api: ObjectApi,
    name: string,
    desired: Record<string, string>,
    later: readonly string[],
    inputs: AttributeObjectInputs,
  ): Promise<void> {
    try {
      await api.update(name, only(desired, later));
    } catch (error) {
      await throwRefusedWrite(error, api, name, "create", desired, inputs, {});
      const first = without(desired, later);
      const held = inputsFromReport(name, Object.keys(desired), first, inputs);
      const reason = error instanceof Error ? error.message : String(error);
      throw new PartialFailureError(
        `pulumi-xcat: created the ${definition.what} '${name}', but setting ${later.map((a) => `'${a}'`).join(", ")} ` +
          `afterwards failed: ${reason} Run up again to finish.`,
        name,
        outputsFrom(held, name, first),
      );
    }
  }

  /** Inputs describing the managed attributes as xCAT reports them now. */
  function inputsFromReport(
    name: string,
    managedNames: Iterable<string>,
    reported: Record<string, string>,
    olds: Partial<AttributeObjectOutputs>,
  ): AttributeObjectInputs {
    const current = managedValues(managedNames, reported);
    const inputs: Record<string, unknown> = { [definition.idInput]: name };
    for (const field of definition.fields) {
      const value = current[field.attribute];
      if (value !== undefined) inputs[field.input] = field.fromAttribute(value);
      delete current[field.attribute];
    }
    const attributes: Record<string, string> = {};
    const secretAttributes: Record<string, string> = {};
    for (const [attribute, value] of Object.entries(current)) {
      if (olds.secretAttributes && attribute in olds.secretAttributes) secretAttributes[attribute] = value;
      else if (!olds.secretAttributes && isSecretAttribute(attribute)) secretAttributes[attribute] = value;
      else attributes[attribute] = value;
    }
    return {
      ...inputs,
      attributes,
      secretAttributes,
      adopt: olds.adopt ?? false,
      ...(olds.connection ? { connection: olds.connection } : {}),
    } as AttributeObjectInputs;
  }

  /**
   * Reads an object to adopt, for the preview. The engine checks resources one after another,
   * so the client cannot merge these reads: the first is one GET, and from the second on one read
   * of every object of the type answers the rest of this process's adopt previews, as a refresh
   * of many objects does. Only for display: create reads again before it writes.
   */
  async function readForAdoption(client: Client, name: string): Promise<Record<string, string> | undefined> {
    const api = definition.api(client);
    const reads = adoptionReads.get(client) ?? { count: 0 };
    adoptionReads.set(client, reads);
    reads.count += 1;
    if (!api.getAll || reads.count === 1) return getIfExists(api, name);
    reads.all ??= api.getAll();
    return (await reads.all).get(name);
  }
  const adoptionReads = new WeakMap<
    Client,
    { count: number; all?: Promise<ReadonlyMap<string, Record<string, string>>> }
  >();

  /** The reported values as the object holds them itself, for the managed attributes (see ownReported). */
  async function ownOf(
    client: Client,
    reported: Record<string, string>,
    managed: readonly string[],
  ): Promise<Record<string, string>> {
    return definition.ownReported ? definition.ownReported(client, reported, managed) : reported;
  }

  async function getIfExists(api: ObjectApi, name: string): Promise<Record<string, string> | undefined> {
    try {
      return await api.get(name);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** Takes an object that already exists, per the create semantics above. */
  async function takeExisting(
    client: Client,
    api: ObjectApi,
    name: string,
    inputs: AttributeObjectInputs,
    asReported: Record<string, string>,
  ): Promise<Record<string, string>> {
    const desired = desiredAttributes(definition, inputs);
    const reported = await ownOf(client, asReported, Object.keys(desired));
    const differing = differingAttributes(desired, reported);
    const conflicts = differing.filter(
      (attribute) => definition.unsetIsConflict || (reported[attribute] ?? "") !== "",
    );
    if (conflicts.length > 0 && !inputs.adopt) {
      // Values are not shown: some may be secrets, and xCAT has them for anyone who looks.
      throw new ResourceConflictError(
        `${definition.kind}: the ${definition.what} '${name}' already exists in xCAT with different values for ` +
          `${conflicts.map((attribute) => `'${attribute}'`).join(", ")}. Nothing was changed. ${ADOPT_ADVICE}, or choose another name.`,
      );
    }
    if (differing.length === 0) return asReported;
    const changes = adoptionChanges(desired, reported, Object.keys(inputs.secretAttributes));
    sayLine(
      `pulumi-xcat: adopting the ${definition.what} '${name}': ${Object.entries(changes)
        .map(([attribute, change]) => `${attribute}: ${change}`)
        .join(", ")}`,
    );
    await api.update(name, attributeChanges({}, desired, reported));
    return api.get(name);
  }

  return {
    kind: definition.kind,
    check,

    replaceKeys(olds, news) {
      const previous = olds[definition.idInput];
      const next = news[definition.idInput];
      return previous !== next || isUnknown(next) ? [definition.idInput] : [];
    },

    hasChanges(olds, news) {
      return !sameAttributes(desiredAttributes(definition, olds), desiredAttributes(definition, news));
    },

    async create(client, inputs, context) {
      const api = definition.api(client);
      const name = String(inputs[definition.idInput]);
      // A replacement creates before it deletes the replaced object: taking over one that is
      // already here could hand the very object the delete then removes (replacements.ts).
      const refuseExisting = () => {
        if (!context?.replacing || inputs.adopt) return;
        throw new ResourceConflictError(
          `${definition.kind}: the ${definition.what} '${name}' already exists where its replacement is to be ` +
            "created, and the replaced one is deleted next. Nothing was changed. If the resource moves to a URL " +
            'that names the same server, keep the old URL (docs/confluent.md, "Moving a resource within one ' +
            'stack"); for `pulumi up --replace`, give it the deleteBeforeReplace option; to take over the ' +
            `${definition.what} on another server, set adopt: true.`,
        );
      };
      const desired = desiredAttributes(definition, inputs);
      let reported: Record<string, string>;
      // What the object held before, when it already existed (its name services may be in place).
      let before: Record<string, string> | undefined;
      // With adopt the object is expected to exist (an imported program): read first, so taking it
      // over as it is sends no write at all, not even a POST that xCAT refuses.
      const existing =
        definition.createMode === "check-first" || inputs.adopt ? await getIfExists(api, name) : undefined;
      if (existing) {
        refuseExisting();
        before = existing;
        reported = await takeExisting(client, api, name, inputs, existing);
      } else {
        try {
          const later = await deferredUntilCreated(api, desired);
          await api.create(name, without(desired, later));
          if (later.length > 0) await finishCreate(api, name, desired, later, inputs);
          reported = await api.reportAfterCreate(name, desired);
        } catch (error) {
          if (!isAlreadyExists(error)) {
            await throwRefusedWrite(error, api, name, "create", desired, inputs, {});
            throw error;
          }
          refuseExisting();
          before = await api.get(name);
          reported = await takeExisting(client, api, name, inputs, before);
        }
      }
      // An object that existed is compared on what the program manages only: an adopted node whose
      // managed values match needs nothing (an imported program's first up writes nothing).
      const managedBefore = before && only(before, Object.keys(desired));
      await definition.afterWrite?.(client, name, managedBefore, desired, inputs);
      return { id: name, outputs: outputsFrom(inputs, name, reported) };
    },

    async serverProblems(client, inputs) {
      // Only attributes that some releases lack are asked about: one read per such attribute
      // and management node, none for programs that use none of them.
      const api = definition.api(client);
      const type = definition.objectType === "group" ? "node" : definition.objectType;
      const failures: InputFailure[] = [];
      for (const attribute of Object.keys(desiredAttributes(definition, inputs))) {
        const versioned = versionedAttribute(type, attribute);
        if (versioned === undefined) continue;
        if ((await api.knowsAttribute(attribute)) !== false) continue;
        const property = attribute in inputs.secretAttributes ? "secretAttributes" : "attributes";
        failures.push({ property, reason: unknownOnServerReason(definition.what, versioned) });
      }
      return failures;
    },

    async adoptChanges(client, inputs) {
      const name = inputs[definition.idInput];
      if (!inputs.adopt || isUnknown(name)) return undefined;
      const asReported = await readForAdoption(client, String(name));
      if (!asReported) return undefined;
      const desired = Object.fromEntries(
        Object.entries(desiredAttributes(definition, inputs)).map(([attribute, value]) => [
          attribute,
          isUnknown(value) ? "(known after apply)" : value,
        ]),
      );
      const reported = await ownOf(client, asReported, Object.keys(desired));
      const changes = adoptionChanges(desired, reported, Object.keys(inputs.secretAttributes));
      // One line per takeover in plain `pulumi preview` (said as Deployment's progress is), so a
      // takeover is seen without --diff or --json.
      const listed = Object.entries(changes).map(([attribute, change]) => `${attribute}: ${change}`);
      sayLine(
        `${definition.kind}: takes over the existing ${definition.what} '${String(name)}', ` +
          `${listed.length > 0 ? `changing ${listed.join(", ")}` : "as it is"}`,
      );
      return changes;
    },

    async announceSideEffects(client, olds, inputs) {
      const name = inputs[definition.idInput];
      if (!definition.announceWrite || isUnknown(name) || inputs.adopt) return;
      const before = olds && desiredAttributes(definition, olds);
      await definition.announceWrite(
        client,
        String(name),
        before,
        desiredAttributes(definition, inputs),
        inputs,
      );
    },

    async read(client, id, olds) {
      const reported = await getIfExists(definition.api(client), id);
      if (!reported) return undefined;
      if (olds.attributes === undefined) {
        // Resource.get / pulumi import: what the object declares itself is taken as declared
        // (not what a node inherits from its groups or xCAT's defaults: the snippet
        // `pulumi import` prints would pin those on the node).
        const own = definition.importedAttributes
          ? await definition.importedAttributes(client, id, reported)
          : reported;
        const inputs = inputsFromReport(id, Object.keys(own), own, olds);
        return { id, inputs, outputs: outputsFrom(inputs, id, reported) };
      }
      const managedNames = Object.keys(desiredAttributes(definition, olds as AttributeObjectInputs));
      const inputs = inputsFromReport(id, managedNames, await ownOf(client, reported, managedNames), olds);
      return { id, inputs, outputs: outputsFrom(inputs, id, reported) };
    },

    async update(client, id, olds, news) {
      const api = definition.api(client);
      const previous = desiredAttributes(definition, olds);
      const changes = attributeChanges(previous, desiredAttributes(definition, news));
      if (Object.keys(changes).length === 0) return outputsFrom(news, id, await api.get(id));
      try {
        await api.update(id, changes);
      } catch (error) {
        await throwRefusedWrite(error, api, id, "update", changes, news, previous);
        throw error;
      }
      // olds.allAttributes is absent in state written before it existed: then this reads.
      const recorded = olds.allAttributes as Record<string, string> | undefined;
      const reported = await api.reportAfterUpdate(id, changes, { recorded, previous });
      await definition.afterWrite?.(client, id, previous, desiredAttributes(definition, news), news);
      return outputsFrom(news, id, reported);
    },

    async delete(client, id, olds) {
      const api = definition.api(client);
      await definition.beforeDelete?.(client, id, olds);
      if (definition.deleteByClearing) {
        const cleared = Object.fromEntries(
          Object.keys(desiredAttributes(definition, olds)).map((name) => [name, ""]),
        );
        if (Object.keys(cleared).length > 0 && (await getIfExists(api, id))) await api.update(id, cleared);
      } else {
        await api.delete(id);
      }
      await definition.afterDelete?.(client, id);
    },
  };
}

function without(attributes: Record<string, string>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(attributes).filter(([name]) => !names.includes(name)));
}

function only(attributes: Record<string, string>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(attributes).filter(([name]) => names.includes(name)));
}
