/**
 * `ConfluentClient`: a typed client of Confluent's HTTP API (`/confluent-api`, xcat2/confluent
 * 3.15.x), beside the xCAT client and sharing only its backend-neutral parts (transport, retry
 * policy, limiter, redaction, error family). Every route and shape cites Confluent's source:
 * core.py (the resource tree), httpapi.py (sessions, rendering), messages.py (answers), and what
 * a real 3.15.6 answered (/work/shared/real-confluent.md, items cited as "item N").
 *
 * @example
 * ```ts
 * const client = new ConfluentClient({ url: "https://mgt/confluent-api", username: "admin", password });
 * await client.nodes.create("n1", { groups: ["compute"], "net.hwaddr": "52:54:00:00:00:01" });
 * ```
 */
import { createXcatError, isNotFound } from "../errors";
import { Limiter } from "../limiter";
import { createRedactor } from "../redact";
import { type RetryOptions, resolveRetryOptions } from "../retry";
import { loadCaCert, Transport } from "../transport";
import type { XcatLogger } from "../types";
import { confluentBaseUrl } from "./base-url";
import { attributesOf, byNode, collectionNames, NodeFailure } from "./bodies";
import { type NodeAttributes, NodeReadBatcher } from "./node-reads";
import { Requester } from "./requests";

export { confluentBaseUrl } from "./base-url";
export type { NodeAttributes } from "./node-reads";

export interface ConfluentClientOptions {
  /** The API's URL; one without a path gets `/confluent-api`. */
  readonly url: string;
  /** The URL as the user wrote it (see XcatClientOptions.urlAsGiven). Default: `url`. */
  readonly urlAsGiven?: string | undefined;
  readonly username: string;
  readonly password: string;
  /** PEM text or a file path. */
  readonly caCert?: string | undefined;
  readonly insecure?: boolean | undefined;
  readonly requestTimeoutMs?: number | undefined;
  readonly retry?: RetryOptions | undefined;
  readonly maxConcurrency?: number | undefined;
  /** Merge concurrent node reads into noderange requests (on by default). */
  readonly batching?: boolean | undefined;
  readonly logger?: XcatLogger | undefined;
  /**
   * Cancels the client when aborted, as XcatClientOptions.signal does: requests in flight are cut
   * off, later ones fail without being sent (XcatCancelledError).
   */
  readonly signal?: AbortSignal | undefined;
}

/** A value Confluent stores: a string, a list (groups), or null to clear (item 9). */
export type ConfluentValue = string | readonly string[] | null;

/** The power states Confluent sets (core.py power/state; item 13). */
export type ConfluentPowerAction = "on" | "off" | "reset" | "boot" | "shutdown" | "diag";

/** A per-node answer of an action on a noderange: the value, or the node's own error (item 14). */
export type PerNodeResult = { readonly value: string } | { readonly error: string };

function usage(message: string) {
  return createXcatError("XCAT_USAGE", `ConfluentClient: ${message}`);
}

/** A node or group name as one path segment; noderanges join names with commas. */
function segment(name: string): string {
  if (name === "" || /[/?#%\s]/.test(name)) throw usage(`'${name}' is not a valid node or group name`);
  return encodeURIComponent(name).replace(/%2C/g, ",");
}

function noderange(names: readonly string[]): string {
  if (names.length === 0) throw usage("a noderange needs at least one node");
  return names.map(segment).join(",");
}

const defaultLogger: XcatLogger = {
  warn: (message) => process.emitWarning(message, { type: "ConfluentClientWarning" }),
};

export class ConfluentClient {
  readonly url: string;
  readonly nodes;
  readonly groups;
  readonly deployment;
  readonly #requester: Requester;
  readonly #transport: Transport;

  constructor(options: ConfluentClientOptions) {
    const { origin, basePath, href } = confluentBaseUrl(options.url);
    if (!options.username || !options.password) throw usage("needs a username and a password");
    const logger = options.logger ?? defaultLogger;
    const maxConcurrency = options.maxConcurrency ?? 8;
    this.url = href;
    if (options.insecure === true && origin.startsWith("https:")) {
      logger.warn?.(`ConfluentClient(${href}): TLS certificate verification is disabled (insecure: true).`);
    }
    this.#transport = new Transport({
      origin,
      basePath,
      ca: options.caCert === undefined ? undefined : loadCaCert(options.caCert),
      insecure: options.insecure === true,
      connectTimeoutMs: 10_000,
      requestTimeoutMs: options.requestTimeoutMs ?? 120_000,
      maxConcurrency,
    });
    this.#requester = new Requester({
      transport: this.#transport,
      limiter: new Limiter(maxConcurrency),
      retry: resolveRetryOptions(options.retry),
      redactor: createRedactor([options.password]),
      logger,
      baseUrl: href,
      urlAsGiven: options.urlAsGiven ?? options.url,
      basePath,
      username: options.username,
      password: options.password,
      cancel: options.signal,
    });
    const send = this.#requester.send.bind(this.#requester);
    const reads = new NodeReadBatcher(
      {
        one: async (name) =>
          attributesOf(
            asRecord(await send({ method: "GET", path: `/nodes/${segment(name)}/attributes/current` })),
          ),
        many: async (names) =>
          readMany(await send({ method: "GET", path: `/noderange/${noderange(names)}/attributes/current` })),
      },
      options.batching !== false,
    );

    this.nodes = {
      /** A node's attributes (`GET /nodes/<n>/attributes/current`), merged with concurrent reads. */
      get: (name: string): Promise<NodeAttributes> => reads.read(name),
      /**
       * Each node's attributes, read as `get` reads them (merged into noderange reads); a node
       * Confluent does not have maps to undefined instead of failing the others.
       */
      getEach: async (names: readonly string[]): Promise<Map<string, NodeAttributes | undefined>> =>
        new Map(
          await Promise.all(
            names.map(async (name) => {
              try {
                return [name, await reads.read(name)] as const;
              } catch (error) {
                if (isNotFound(error)) return [name, undefined] as const;
                throw error;
              }
            }),
          ),
        ),
      /** Several nodes in one request; rejects with not-found when one is not a node (item 12). */
      getMany: async (names: readonly string[]): Promise<Map<string, NodeAttributes>> =>
        readMany(await send({ method: "GET", path: `/noderange/${noderange(names)}/attributes/current` })),
      /** The node names of a noderange (`GET /noderange/<nr>/nodes/`). */
      list: async (range: string): Promise<string[]> =>
        collectionNames(await send({ method: "GET", path: `/noderange/${segment(range)}/nodes/` })),
      /**
       * Creates a node (`POST /nodes/`, core.py create_node). Confluent merges into a node that
       * exists instead of refusing (item 2): callers that must not, read first.
       */
      create: async (name: string, attributes: Readonly<Record<string, ConfluentValue>>): Promise<void> => {
        await send({ method: "POST", path: "/nodes/", body: { ...attributes, name } });
      },
      /**
       * Creates the nodes, all with the same attributes, in one request (`POST /noderange/`
       * `{"name": "n1,n2,…", …}`, core.py 3.15.6:823-837 create_noderange: every node of the
       * range gets the same attributes; item 1). Merges into nodes that exist, as create does.
       */
      createMany: async (
        names: readonly string[],
        attributes: Readonly<Record<string, ConfluentValue>>,
      ): Promise<void> => {
        if (names.length === 0) throw usage("a noderange needs at least one node");
        for (const name of names) segment(name);
        await send({ method: "POST", path: "/noderange/", body: { ...attributes, name: names.join(",") } });
      },
      /** Sets (or with null clears) attributes (`PUT /nodes/<n>/attributes/current`). */
      update: async (name: string, attributes: Readonly<Record<string, ConfluentValue>>): Promise<void> => {
        await send({ method: "PUT", path: `/nodes/${segment(name)}/attributes/current`, body: attributes });
      },
      /**
       * The same attributes on every node of the list, in one request; answers each node's current
       * attributes after the change, as Confluent returns them (item 11).
       */
      updateMany: async (
        names: readonly string[],
        attributes: Readonly<Record<string, ConfluentValue>>,
      ): Promise<Map<string, NodeAttributes>> =>
        readMany(
          await send({
            method: "PUT",
            path: `/noderange/${noderange(names)}/attributes/current`,
            body: attributes,
          }),
        ),
      /** Deletes a node; a missing one is 404 (item 2). */
      delete: async (name: string): Promise<void> => {
        await send({ method: "DELETE", path: `/nodes/${segment(name)}` });
      },
      /**
       * Deletes the nodes in one request (`DELETE /noderange/<nr>`); when one of them is not a
       * node, Confluent deletes none and answers 404 (item 12).
       */
      deleteMany: async (names: readonly string[]): Promise<void> => {
        await send({ method: "DELETE", path: `/noderange/${noderange(names)}` });
      },
      /** Each node's power state (`GET /noderange/<nr>/power/state`, item 13). */
      getPower: async (names: readonly string[]): Promise<Map<string, PerNodeResult>> =>
        perNode(await send({ method: "GET", path: `/noderange/${noderange(names)}/power/state` }), "state"),
      /** Sets power; answers each node's new state or its own error (items 13, 14). */
      setPower: async (
        names: readonly string[],
        state: ConfluentPowerAction,
      ): Promise<Map<string, PerNodeResult>> =>
        perNode(
          await send({
            method: "PUT",
            path: `/noderange/${noderange(names)}/power/state`,
            body: { state },
            kind: "action",
          }),
          "state",
        ),
      /** The next boot device, once (`PUT .../boot/nextdevice`, item 15). */
      setNextDevice: async (
        names: readonly string[],
        device: "network" | "hd" | "default",
      ): Promise<Map<string, PerNodeResult>> =>
        perNode(
          await send({
            method: "PUT",
            path: `/noderange/${noderange(names)}/boot/nextdevice`,
            body: { nextdevice: device, bootmode: "uefi", persistent: false },
          }),
          "nextdevice",
        ),
    };

    this.groups = {
      /** A group's own attributes (`GET /nodegroups/<g>/attributes/current`). */
      get: async (name: string): Promise<NodeAttributes> =>
        attributesOf(
          asRecord(await send({ method: "GET", path: `/nodegroups/${segment(name)}/attributes/current` })),
        ),
      list: async (): Promise<string[]> =>
        collectionNames(await send({ method: "GET", path: "/nodegroups/" })),
      /** Creates a group (`POST /nodegroups/`, core.py create_group); merges into one that exists. */
      create: async (name: string, attributes: Readonly<Record<string, ConfluentValue>>): Promise<void> => {
        await send({ method: "POST", path: "/nodegroups/", body: { ...attributes, name } });
      },
      update: async (name: string, attributes: Readonly<Record<string, ConfluentValue>>): Promise<void> => {
        await send({
          method: "PUT",
          path: `/nodegroups/${segment(name)}/attributes/current`,
          body: attributes,
        });
      },
      /** Deletes a group; its members lose it silently, a missing one is 200 (items 2, 8). */
      delete: async (name: string): Promise<void> => {
        await send({ method: "DELETE", path: `/nodegroups/${segment(name)}` });
      },
    };

    this.deployment = {
      /** The deployment profiles on the server (`GET /deployment/profiles/`, item 16). */
      profiles: async (): Promise<string[]> =>
        collectionNames(await send({ method: "GET", path: "/deployment/profiles/" })),
    };
  }

  /** Proves URL and credentials with one request (`GET /sessions/current/info`, item 6). */
  async verifyConnection(): Promise<void> {
    await this.#requester.send({ method: "GET", path: "/sessions/current/info" });
  }

  /** Logs the session out and closes the connection pool. */
  async close(): Promise<void> {
    await this.#requester.logout();
    await this.#transport.close();
  }
}

function asRecord(body: unknown): Record<string, unknown> {
  return typeof body === "object" && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}

function readMany(body: unknown): Map<string, NodeAttributes> {
  const result = new Map<string, NodeAttributes>();
  for (const [node, fields] of byNode(body)) result.set(node, attributesOf(fields));
  return result;
}

/** Each node's `{<field>: {"value": v}}` or `{"error": …}` of a noderange action or read. */
function perNode(body: unknown, field: string): Map<string, PerNodeResult> {
  const result = new Map<string, PerNodeResult>();
  for (const [node, fields] of byNode(body)) {
    const failure = NodeFailure.safeParse(fields);
    if (failure.success) {
      result.set(node, { error: failure.data.error });
      continue;
    }
    const value = (fields[field] as { value?: unknown } | undefined)?.value;
    result.set(node, { value: value === undefined || value === null ? "" : String(value) });
  }
  return result;
}
