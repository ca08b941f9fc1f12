/**
 * The operations every lsdef/chdef/mkdef/rmdef-backed object type shares (nodes, osimages,
 * networks, policy, groups): list, get, getMany, getAttrs, create, update, delete. Each type's
 * namespace extends {@link NamedObjects} and adds its own routes.
 */
import { ObjectAttributeMaps, StringList } from "../../contract/envelope";
import { compressNoderange } from "../../contract/noderange";
import { isPerNodeTemplate } from "../../contract/per-node-values";
import { Coalescer } from "../coalescer";
import { derivedWindowMs } from "../derived-window";
import { type Answer, type CallSpec, type CreateCheck, type Engine, parseBody } from "../engine";
import { createXcatError, isNotFound, isXcatError } from "../errors";
import { conditionAttributes, knownAfterUpdate } from "../known-after-update";
import { attributeListSegment, nameListSegment, noderangeSegment, objectSegment } from "../names";
import { noderangeChunks } from "../noderange-chunks";
import {
  attributesMatch,
  expandCollapsedKeys,
  isEmptyListAnswer,
  missingObjectNames,
  toObjectWriteBody,
  toWireAttributes,
} from "../quirks";
import { ReadBatcher } from "../read-batcher";
import { readBatchingOf } from "../read-batcher-engine";
import { BATCHED_TYPES, isPlainName } from "../read-batcher-writes";
import type { AttributeInput, Attributes, CallOptions } from "../types";
import { type DeleteResult, deleteMerged, updateMerged } from "../write-merging";

/** How one object type maps onto its routes. */
export interface ObjectTypeSpec {
  /** Route id prefix: "nodes", "osimages", ... */
  readonly prefix: string;
  /** Name of the path parameter in the route templates: "noderange", "imgname", ... */
  readonly param: string;
  /** Words for messages: "node name", "osimage name", ... */
  readonly what: string;
}

/** Options of `getMany`. */
export interface GetManyOptions extends CallOptions {
  /** Read only these attributes (the `/attrs/{attrs}` route). */
  readonly attrs?: readonly string[] | undefined;
}

/** Options of `delete`. */
export interface DeleteOptions extends CallOptions {
  /** Resolve instead of throwing XcatNotFoundError when the object does not exist. */
  readonly ignoreMissing?: boolean | undefined;
}

/** Options of a `create`. */
export interface CreateOptions extends CallOptions {
  /** mkdef options passed through xcatws's `options` body key, e.g. `{ "--template": "x86_64kvmguest-template" }`. */
  readonly mkdefOptions?: Readonly<Record<string, string>> | undefined;
}

/** One object of a {@link NamedObjects.reportAfterUpdates} call: what was sent, and what was known before. */
export interface UpdatedObject {
  readonly name: string;
  readonly sent: AttributeInput;
  readonly before: { readonly recorded: Attributes | undefined; readonly previous: AttributeInput };
}

/** Names per request of a group read of a type other than nodes (a comma list, as `get` batches). */
const GROUP_NAMES_PER_LIST = 100;

/** A name no object has, for asking lsdef about an attribute (see `knowsAttribute`). */
const ATTRIBUTE_PROBE_NAME = "pulumi-xcat-attribute-probe";

/** Attribute maps keyed by object name. */
export type AttributeMaps = Readonly<Record<string, Attributes>>;

export abstract class NamedObjects {
  protected readonly engine: Engine;
  protected readonly spec: ObjectTypeSpec;
  /** Merges concurrent `get`s (see read-batcher.ts); created on first use, absent when off. */
  #batcher: ReadBatcher<Attributes> | undefined;
  /** Merges deletes of nodes, and node updates with equal bodies (see write-merging.ts); absent when off or for other types. */
  #writeQueue: Coalescer<string, DeleteResult | undefined> | undefined;
  /** Answers of {@link knowsAttribute}, by attribute. */
  readonly #knownAttributes = new Map<string, Promise<boolean | undefined>>();
  /**
   * What xCAT adds to created objects, by the shape of what was sent (see `reportAfterCreate`);
   * `added` is undefined for a shape whose additions differ between objects (each is read back).
   */
  readonly #derived = new Map<
    string,
    { readonly seq: number; readonly at: number; readonly added: Attributes | undefined }
  >();
  /** The read-back in flight that learns a shape's additions, so concurrent creates of it wait for one. */
  readonly #learning = new Map<string, { readonly seq: number; readonly done: Promise<unknown> }>();
  /** The pending decision whether a shape's additions are shared, so concurrent creates ask once. */
  readonly #sharing = new Map<
    string,
    { readonly seq: number; readonly at: number; readonly shared: Promise<boolean> }
  >();

  protected constructor(engine: Engine, spec: ObjectTypeSpec) {
    this.engine = engine;
    this.spec = spec;
  }

  #readBatcher(options: CallOptions | undefined): ReadBatcher<Attributes> | undefined {
    if (options?.signal || options?.debug || options?.pretty || options?.xcoll) return undefined;
    if (this.#batcher !== undefined) return this.#batcher;
    const batching = readBatchingOf(this.engine);
    const type = BATCHED_TYPES[this.spec.prefix];
    if (batching === undefined || type === undefined) return undefined;
    this.#batcher = new ReadBatcher<Attributes>({
      ...batching.tuning,
      type,
      writes: batching.writes,
      now: batching.now,
      hold: batching.hold,
      fetchMany: (names) => this.#readBatch(names),
      fetchGroup: (names) => this.#readGroup(names, undefined),
      fetchAll: () => this.getMany("ALLRESOURCES"),
      countAll: async () => (await this.list()).length,
    });
    return this.#batcher;
  }

  /** The write queue, when batching is on and `names` is one plain node sent without special options. */
  #mergedWrites(
    names: string | readonly string[],
    options: CallOptions | undefined,
  ): { queue: Coalescer<string, DeleteResult | undefined>; name: string } | undefined {
    if (options?.signal || options?.debug || options?.pretty || options?.xcoll) return undefined;
    const name = typeof names === "string" ? names : names.length === 1 ? names[0] : undefined;
    if (name === undefined || !isPlainName(name)) return undefined;
    // Nodes only: noderange writes are what xcatws documents and what was checked against a running
    // xCAT (xcat-behavior.md 9.6); other types have few objects, so merging them gains little.
    const batching = readBatchingOf(this.engine);
    if (batching === undefined || this.spec.param !== "noderange") return undefined;
    this.#writeQueue ??= new Coalescer<string, DeleteResult | undefined>({
      hold: batching.hold,
      run: (lane, batch) => {
        if (lane === "delete") {
          return deleteMerged(batch, {
            deleteMany: async (some) => {
              await this.engine.call({ route: this.route("delete"), params: this.many(some) });
            },
            onlyMissing: (error) => {
              if (!isNotFound(error) || !isXcatError(error)) return undefined;
              const missing = missingObjectNames(error.messages);
              return missing.length === error.messages.length ? missing : undefined;
            },
          });
        }
        const body = JSON.parse(lane.slice("update ".length)) as Record<string, string>;
        return updateMerged(batch, async (some) => {
          await this.engine.call({ route: this.route("update"), params: this.many(some), body });
        });
      },
    });
    return { queue: this.#writeQueue, name };
  }

  protected route(operation: string): string {
    return `${this.spec.prefix}.${operation}`;
  }

  protected one(name: string): Record<string, string> {
    return { [this.spec.param]: objectSegment(name, this.spec.what) };
  }

  protected many(names: string | readonly string[]): Record<string, string> {
    return {
      [this.spec.param]:
        this.spec.param === "noderange" ? noderangeSegment(names) : nameListSegment(names, this.spec.what),
    };
  }

  /**
   * Names of all objects of this type, sorted as xCAT sorts them (as strings). An empty type
   * gives `[]`, whichever of xCAT's "nothing here" answers comes back.
   *
   * @example
   * ```ts
   * const nodes = await client.nodes.list(); // ["n01", "n02"]
   * ```
   */
  async list(options?: CallOptions): Promise<string[]> {
    const answer = await this.engine.call({ route: this.route("list"), options, emptyListOk: true });
    if (answer.body === undefined || isEmptyListAnswer(answer.status, answer.body)) return [];
    return parseBody(answer, StringList);
  }

  /**
   * All attributes of one object. Throws XcatNotFoundError (see `isNotFound`) when it does not exist.
   *
   * @example
   * ```ts
   * const { groups } = await client.nodes.get("n01");
   * ```
   */
  async get(name: string, options?: CallOptions): Promise<Attributes> {
    const batcher = this.#readBatcher(options);
    if (batcher !== undefined) {
      const params = this.one(name); // validates before anything is queued
      const found = await batcher.get(name);
      if (found === undefined) throw this.#notFound("GET", name, params);
      return { ...found };
    }
    const answer = await this.engine.call({ route: this.route("get"), params: this.one(name), options });
    return this.pick(answer, name);
  }

  /** The error a single request for a missing object gets from xCAT, for a call answered by a batch. */
  #notFound(method: "GET" | "DELETE", name: string, params: Record<string, string>): Error {
    const base = readBatchingOf(this.engine)?.baseUrl ?? "";
    const url = `${base}/${this.spec.prefix}/${params[this.spec.param] ?? name}`;
    const type = BATCHED_TYPES[this.spec.prefix] ?? this.spec.prefix;
    const message = `Could not find an object named '${name}' of type '${type}'.`;
    return createXcatError(
      "XCAT_NOT_FOUND",
      `${method} ${new URL(url).pathname} failed: 403 errorcode=1 "${message}"`,
      {
        method,
        url,
        status: 403,
        errorcode: "1",
        messages: [message],
      },
    );
  }

  /**
   * Selected attributes of one object. Attributes that are valid but unset come back as "".
   *
   * @example
   * ```ts
   * const { mgt } = await client.nodes.getAttrs("n01", ["mgt"]);
   * ```
   */
  async getAttrs(name: string, attrs: readonly string[], options?: CallOptions): Promise<Attributes> {
    const answer = await this.engine.call({
      route: this.route("getAttrs"),
      params: { ...this.one(name), attrs: attributeListSegment(attrs) },
      options,
    });
    return this.pick(answer, name);
  }

  /**
   * Whether the management node's xCAT knows `attribute` for this object type, learnt without
   * writing and without an object: `lsdef -i <attribute>` of a name that does not exist. lsdef
   * checks `-i` names against the release's Schema.pm before it looks for the object
   * (master:xCAT-server/lib/xcat/plugins/DBobjectdefs.pm:4003-4026, then 4078-4084), so the
   * answer names an unknown attribute, or only the missing object when the attribute is known.
   * `undefined` when the answer cannot tell (no object of the type at all: lsdef then stops
   * before the check, 3995-4001). Asked once per attribute and client; an answer that could not
   * tell is asked again next time (by then an object may exist), concurrent calls share one request.
   *
   * @example
   * ```ts
   * await client.osimages.knowsAttribute("nfsrootopts"); // false on xCAT 2.18 and older
   * ```
   */
  knowsAttribute(attribute: string): Promise<boolean | undefined> {
    let known = this.#knownAttributes.get(attribute);
    if (known === undefined) {
      known = this.#askKnowsAttribute(attribute);
      this.#knownAttributes.set(attribute, known);
      const asked = known;
      void asked.then(
        (answer) => {
          if (answer === undefined && this.#knownAttributes.get(attribute) === asked)
            this.#knownAttributes.delete(attribute);
        },
        () => this.#knownAttributes.delete(attribute),
      );
    }
    return known;
  }

  async #askKnowsAttribute(attribute: string): Promise<boolean | undefined> {
    try {
      await this.engine.call({
        route: this.route("getAttrs"),
        params: { ...this.one(ATTRIBUTE_PROBE_NAME), attrs: attributeListSegment([attribute]) },
      });
      return undefined;
    } catch (error) {
      if (!isXcatError(error)) throw error;
      if (error.messages.some((m) => m.startsWith(`'${attribute}' is not a valid attribute name`)))
        return false;
      const missing = missingObjectNames(error.messages);
      if (missing.length === error.messages.length && missing.includes(ATTRIBUTE_PROBE_NAME)) return true;
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /**
   * Several objects in one request (a comma list, a noderange, a group, or `ALLRESOURCES`). xCAT
   * fails the whole read when one name is missing; the client then asks again without the
   * missing names, so the Map simply lacks them.
   *
   * @example
   * ```ts
   * const found = await client.nodes.getMany(["n01", "n02", "gone"]);
   * found.has("gone"); // false
   * ```
   */
  getMany(names: string | readonly string[], options?: GetManyOptions): Promise<Map<string, Attributes>> {
    return this.#readMany(names, options, new Set());
  }

  /** A batch for the read batcher: a name xCAT did not report missing but left out reads as `{}`, as `get` does. */
  async #readBatch(names: readonly string[]): Promise<Map<string, Attributes>> {
    const missing = new Set<string>();
    const found = await this.#readMany(names, undefined, missing);
    const batch = new Map<string, Attributes>();
    for (const name of names) if (!missing.has(name)) batch.set(name, found.get(name) ?? {});
    return batch;
  }

  /**
   * Several objects read as one group, as a NodeSet reads its nodes: a Map without the names that
   * do not exist. With batching, groups read at the same time share requests: they go out together
   * as one read of all their names, nodes as one compact noderange (`r[01-08]n[01-40]`), when the
   * read in flight is answered; a refresh of many groups ends in one read of the whole type when
   * that costs less (see read-batcher.ts). A lone group is one read of its own names. Without
   * batching: one read of the group's names (more only past what one URL holds).
   *
   * @example
   * ```ts
   * const rack = await client.nodes.getGroup(["r01n01", "r01n02", "r01n03"]);
   * rack.get("r01n02")?.ip;
   * ```
   */
  async getGroup(names: readonly string[], options?: CallOptions): Promise<Map<string, Attributes>> {
    for (const name of names) objectSegment(name, this.spec.what); // validates before anything is queued
    if (names.length === 0) return new Map();
    const batcher = this.#readBatcher(options);
    if (batcher === undefined) return this.#readGroup(names, options);
    const found = await batcher.getGroup(names);
    // Copies: the answer may be shared with other groups and with the type's snapshot.
    return new Map([...found].map(([name, attributes]) => [name, { ...attributes }]));
  }

  /**
   * A group read as few requests as the server takes: nodes as compact noderanges within what
   * one URL holds (noderange-chunks.ts), other types as comma lists. A name xCAT did not report
   * missing but left out reads as `{}`, as `get` does.
   */
  async #readGroup(
    names: readonly string[],
    options: CallOptions | undefined,
  ): Promise<Map<string, Attributes>> {
    const unique = [...new Set(names)];
    const chunks: string[][] = [];
    if (this.spec.param === "noderange") chunks.push(...noderangeChunks(unique));
    else
      for (let start = 0; start < unique.length; start += GROUP_NAMES_PER_LIST)
        chunks.push(unique.slice(start, start + GROUP_NAMES_PER_LIST));
    const missing = new Set<string>();
    const answers = await Promise.all(chunks.map((chunk) => this.#readChunk(chunk, options, missing)));
    const found = new Map<string, Attributes>();
    for (const answer of answers) for (const [name, attributes] of answer) found.set(name, attributes);
    const group = new Map<string, Attributes>();
    for (const name of unique) if (!missing.has(name)) group.set(name, found.get(name) ?? {});
    return group;
  }

  /**
   * One request for `names` (nodes as one compact noderange), asked again without the names xCAT
   * reports missing: xCAT fails the whole read when one is (xcat-behavior.md 9.6), and a name
   * inside a range can only be left out by writing the range again.
   */
  async #readChunk(
    names: readonly string[],
    options: CallOptions | undefined,
    missingNames: Set<string>,
  ): Promise<Map<string, Attributes>> {
    let remaining = [...names];
    // Each round removes at least one name, or ends.
    for (let round = 0; round <= names.length; round += 1) {
      if (remaining.length === 0) return new Map();
      const segment = this.spec.param === "noderange" ? compressNoderange(remaining) : remaining;
      try {
        const answer = await this.engine.call({
          route: this.route("get"),
          params: this.many(segment),
          options,
        });
        return new Map(Object.entries(this.maps(answer)));
      } catch (error) {
        if (!isNotFound(error) || !isXcatError(error)) throw error;
        const missing = new Set(missingObjectNames(error.messages));
        const kept = remaining.filter((name) => !missing.has(name));
        if (kept.length === remaining.length) throw error;
        for (const name of remaining) if (missing.has(name)) missingNames.add(name);
        remaining = kept;
      }
    }
    throw new Error("internal: a group read did not converge");
  }

  /** getMany, adding the names xCAT reported missing to `missing`. */
  async #readMany(
    names: string | readonly string[],
    options: GetManyOptions | undefined,
    missingNames: Set<string>,
  ): Promise<Map<string, Attributes>> {
    this.many(names); // validates before anything is sent
    let remaining: string[] = typeof names === "string" ? splitTopLevel(names) : [...names];
    // Each round removes every name xCAT reported missing; a range element cannot be removed, so
    // the number of rounds is bounded by the number of elements.
    const rounds = remaining.length + 1;
    for (let round = 0; round < rounds; round += 1) {
      if (remaining.length === 0) return new Map();
      const params = this.many(typeof names === "string" ? remaining.join(",") : remaining);
      const spec: CallSpec =
        options?.attrs === undefined
          ? { route: this.route("get"), params, options }
          : {
              route: this.route("getAttrs"),
              params: { ...params, attrs: attributeListSegment(options.attrs) },
              options,
            };
      try {
        const answer = await this.engine.call(spec);
        return new Map(Object.entries(this.maps(answer)));
      } catch (error) {
        if (!isNotFound(error) || !isXcatError(error)) throw error;
        const missing = new Set(missingObjectNames(error.messages));
        const kept = remaining.filter((name) => !missing.has(name));
        for (const name of missing) missingNames.add(name);
        if (kept.length === remaining.length) throw error;
        remaining = kept;
      }
    }
    throw new Error("internal: getMany did not converge");
  }

  /**
   * Changes attributes (xCAT's chdef); an empty string clears one. Note that xCAT's PUT also
   * creates an object that does not exist (nodes still need `groups`).
   *
   * @example
   * ```ts
   * await client.nodes.update("n01", { netboot: "xnba", usercomment: "" });
   * ```
   */
  async update(
    names: string | readonly string[],
    attrs: AttributeInput,
    options?: CallOptions,
  ): Promise<void> {
    const params = this.many(names); // validates before anything is queued
    const body = toObjectWriteBody(attrs);
    const merged = this.#mergedWrites(names, options);
    if (merged !== undefined) {
      const sorted = Object.fromEntries(
        Object.entries(body).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      );
      await merged.queue.submit(`update ${JSON.stringify(sorted)}`, merged.name);
      return;
    }
    await this.engine.call({ route: this.route("update"), params, body, options });
  }

  protected async createObject(
    name: string,
    attrs: AttributeInput,
    options: CreateOptions | undefined,
  ): Promise<void> {
    const body: Record<string, unknown> = { ...toObjectWriteBody(attrs) };
    if (options?.mkdefOptions) body.options = { ...options.mkdefOptions };
    await this.engine.call({
      route: this.route("create"),
      params: this.one(name),
      body,
      kind: "create",
      options,
      checkCreate: () => this.checkCreated(name, attrs),
    });
  }

  /**
   * What xCAT reports for `name` right after this client created it with `sent`, as `get` would
   * answer, without a read per object where that is provably the same. What xCAT adds to a
   * created object (a node's values inherited from its groups, the default postscripts) comes
   * from rows keyed by its groups and from the xcatdefaults row, so it is the same for every
   * object sent with the same groups, the same attribute names and the same condition values,
   * except where xCAT derives a value from the object's own name: a per-node template
   * (`|pattern|replacement|`, `/pattern/replacement/`, see per-node-values.ts) in one of its
   * groups or in what was sent, which each node expands to its own ip or bmc; and a group's
   * `members`. So the first object of each shape is read back, and `sharesAdditions` decides from
   * the raw definitions of its groups (one read per shape) whether the next objects of that shape
   * are answered with what xCAT added to it plus what was sent for them, or each read back (the
   * read batcher merges those reads). Kept only while nothing this client wrote could have
   * changed it (a write to a group, a table or the whole type; see {@link WriteLog}) and for at
   * most a minute, longer on a slow server (derived-window.ts; changes by others show up after
   * that, or at the next refresh), and only when xCAT reported every sent value unchanged (not so
   * for list attributes it extends). Creates of one shape that start together wait for the first
   * one's read-back. Without batching: one read, as before.
   *
   * @example
   * ```ts
   * await client.nodes.create("n01", { groups: "compute" });
   * const reported = await client.nodes.reportAfterCreate("n01", { groups: "compute" });
   * ```
   */
  async reportAfterCreate(name: string, sent: AttributeInput): Promise<Attributes> {
    const batching = readBatchingOf(this.engine);
    const type = BATCHED_TYPES[this.spec.prefix];
    if (batching === undefined || type === undefined) return this.get(name);
    const wire = toWireAttributes(sent);
    // The values that decide where other attributes live (only_if: mgt, nodetype, imagetype) are
    // part of the shape: with mgt=kvm a node shows no inherited BMC attributes.
    const conditions = conditionAttributes(type).map((attribute) => wire[attribute] ?? null);
    const shape = JSON.stringify([wire.groups ?? null, conditions, Object.keys(wire).sort()]);
    // Each time it is asked: own writes since an entry was made (a group update, a table write)
    // make it stale, and the window follows the server's current pace (derived-window.ts).
    const noOwnWriteSince = (seq: number) => seq >= batching.writes.lastWrite(type, "").seq;
    const fresh = (entry: { readonly seq: number; readonly at: number }) =>
      noOwnWriteSince(entry.seq) && batching.now() - entry.at < derivedWindowMs(batching.hold.requestMs());
    const known = this.#derived.get(shape);
    if (known !== undefined && fresh(known)) {
      return known.added === undefined ? this.get(name) : { ...known.added, ...wire };
    }
    // Another create of this shape is reading its object back: what it learns answers this one
    // too, so a rack's creates that start together cost one read-back, not one each.
    const learning = this.#learning.get(shape);
    if (learning !== undefined && noOwnWriteSince(learning.seq)) {
      await learning.done.catch(() => undefined);
      const learnt = this.#derived.get(shape);
      if (learnt?.added !== undefined && fresh(learnt)) return { ...learnt.added, ...wire };
      return this.get(name);
    }
    const seq = batching.writes.seq;
    const done = this.#learnAdditions(name, wire, shape, { seq, at: batching.now() }, fresh);
    const mine = { seq, done };
    this.#learning.set(shape, mine);
    try {
      return await done;
    } finally {
      if (this.#learning.get(shape) === mine) this.#learning.delete(shape);
    }
  }

  /** Reads `name` back and, when xCAT kept what was sent, records what it added for `shape`. */
  async #learnAdditions(
    name: string,
    wire: Readonly<Record<string, string>>,
    shape: string,
    started: { readonly seq: number; readonly at: number },
    fresh: (entry: { readonly seq: number; readonly at: number }) => boolean,
  ): Promise<Attributes> {
    const reported = await this.get(name);
    const keptAsSent = Object.entries(wire).every(
      ([attribute, value]) => reported[attribute] === value && !isPerNodeTemplate(value),
    );
    if (keptAsSent) {
      let sharing = this.#sharing.get(shape);
      if (sharing === undefined || !fresh(sharing)) {
        sharing = { ...started, shared: this.sharesAdditions(wire) };
        this.#sharing.set(shape, sharing);
      }
      const added = Object.fromEntries(
        Object.entries(reported).filter(([attribute]) => !(attribute in wire)),
      );
      const shared = await sharing.shared;
      this.#derived.set(shape, { seq: sharing.seq, at: sharing.at, added: shared ? added : undefined });
    }
    return reported;
  }

  /**
   * Whether what xCAT adds to an object created with `wire` is the same for every object of its
   * type created with the same shape (see `reportAfterCreate`). Objects other than nodes and
   * groups inherit nothing and are read raw (DBobjUtils.pm getobjdefs, `keep_raw`), so what xCAT
   * adds to them does not depend on their name; node and group namespaces override this.
   */
  protected sharesAdditions(_wire: Readonly<Record<string, string>>): Promise<boolean> {
    return Promise.resolve(true);
  }

  /**
   * What xCAT reports for `name` right after this client updated it with `sent`, as `get` would
   * answer: known without a read when the update only set values that change nothing else (see
   * known-after-update.ts for the rule and why it is safe), else one read. `before` is what was
   * known of the object before the update: what xCAT reported (`recorded`, undefined when
   * unknown) and the values the caller itself had set (`previous`). Without batching: one read,
   * as before.
   *
   * @example
   * ```ts
   * await client.nodes.update("n01", { provmethod: "rocky9-netboot" });
   * const reported = await client.nodes.reportAfterUpdate("n01", { provmethod: "rocky9-netboot" }, {
   *   recorded: { groups: "compute", provmethod: "rocky8-netboot" },
   *   previous: { provmethod: "rocky8-netboot" },
   * });
   * ```
   */
  async reportAfterUpdate(
    name: string,
    sent: AttributeInput,
    before: { readonly recorded: Attributes | undefined; readonly previous: AttributeInput },
  ): Promise<Attributes> {
    const type = BATCHED_TYPES[this.spec.prefix];
    if (readBatchingOf(this.engine) === undefined || type === undefined) return this.get(name);
    const known = knownAfterUpdate({
      type,
      recorded: before.recorded,
      previous: toWireAttributes(before.previous),
      sent: toWireAttributes(sent),
    });
    return known ?? this.get(name);
  }

  /**
   * What xCAT reports for several objects right after this client updated them, as `getGroup`
   * would answer (a Map without the objects that do not exist): each known without a read where
   * its update only set values that change nothing else (the rule of `reportAfterUpdate`,
   * known-after-update.ts), the others read together as one group, merged with other groups
   * read at the same time. An image roll of a NodeSet (a new `provmethod` on every node) then
   * reads nothing back. Without batching: one group read of them all, as before.
   *
   * @example
   * ```ts
   * await client.nodes.update("r01n[01-02]", { provmethod: "rocky9-netboot" });
   * const reported = await client.nodes.reportAfterUpdates(
   *   ["r01n01", "r01n02"].map((name) => ({
   *     name,
   *     sent: { provmethod: "rocky9-netboot" },
   *     before: { recorded: recordedOf(name), previous: { provmethod: "rocky8-netboot" } },
   *   })),
   * );
   * ```
   */
  async reportAfterUpdates(updates: readonly UpdatedObject[]): Promise<Map<string, Attributes>> {
    const type = BATCHED_TYPES[this.spec.prefix];
    if (readBatchingOf(this.engine) === undefined || type === undefined)
      return this.getGroup(updates.map((update) => update.name));
    const reported = new Map<string, Attributes>();
    const unknown: string[] = [];
    for (const { name, sent, before } of updates) {
      const known = knownAfterUpdate({
        type,
        recorded: before.recorded,
        previous: toWireAttributes(before.previous),
        sent: toWireAttributes(sent),
      });
      if (known === undefined) unknown.push(name);
      else reported.set(name, known);
    }
    if (unknown.length > 0)
      for (const [name, attributes] of await this.getGroup(unknown)) reported.set(name, attributes);
    return reported;
  }

  /** Reads `name` once, to learn whether a create whose answer was lost took place. */
  protected async checkCreated(name: string, attrs: AttributeInput): Promise<CreateCheck> {
    try {
      const answer = await this.engine.call({
        route: this.route("get"),
        params: this.one(name),
        singleAttempt: true,
      });
      return attributesMatch(attrs, this.pick(answer, name)) ? "present" : "different";
    } catch (error) {
      if (isNotFound(error)) return "absent";
      throw error;
    }
  }

  protected async deleteObjects(
    names: string | readonly string[],
    options: DeleteOptions | undefined,
  ): Promise<void> {
    const params = this.many(names); // validates before anything is queued
    const merged = this.#mergedWrites(names, options);
    if (merged !== undefined) {
      const result = await merged.queue.submit("delete", merged.name);
      if (result === "missing" && !options?.ignoreMissing)
        throw this.#notFound("DELETE", merged.name, params);
      return;
    }
    try {
      await this.engine.call({ route: this.route("delete"), params, options });
    } catch (error) {
      if (options?.ignoreMissing && isNotFound(error)) return;
      throw error;
    }
  }

  protected maps(answer: Answer): Record<string, Attributes> {
    if (answer.body === undefined || isEmptyListAnswer(answer.status, answer.body)) return {};
    const maps = parseBody(answer, ObjectAttributeMaps);
    return expandCollapsedKeys(maps);
  }

  protected pick(answer: Answer, name: string): Attributes {
    return this.maps(answer)[name] ?? {};
  }
}

/** Splits a noderange at its top-level commas (not those inside `[...]` or `(...)`). */
export function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of text) {
    if (char === "[" || char === "(") depth += 1;
    if (char === "]" || char === ")") depth = Math.max(0, depth - 1);
    if (char === "," && depth === 0) {
      parts.push(current);
      current = "";
    } else current += char;
  }
  parts.push(current);
  return parts.filter((part) => part.length > 0);
}
