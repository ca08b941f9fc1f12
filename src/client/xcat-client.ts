/**
 * XcatClient: options, the shared machinery (pool, limiter, tokens, retries) and the resource
 * namespaces. It reads no environment variables and holds no module-level state; everything it
 * uses arrives through its options, so a provider can build one lazily from its configuration.
 */
import { TokenSource } from "./auth";
import { normalizeBaseUrl } from "./base-url";
import { createXcatError } from "./errors";
import { Limiter } from "./limiter";
import { WriteTrackingEngine } from "./read-batcher-engine";
import { createRedactor, type Redactor } from "./redact";
import { GlobalconfApi } from "./resources/globalconf";
import { GroupsApi } from "./resources/groups";
import { NetworksApi } from "./resources/networks";
import { NodesApi } from "./resources/nodes";
import { OsimagesApi } from "./resources/osimages";
import { PolicyApi } from "./resources/policy";
import { ServicesApi } from "./resources/services";
import { TablesApi } from "./resources/tables";
import { TokensApi } from "./resources/tokens";
import { resolveRetryOptions } from "./retry";
import { loadCaCert, Transport } from "./transport";
import type { CallerGauge, XcatClientMetrics, XcatClientOptions, XcatLogger } from "./types";

export { normalizeBaseUrl } from "./base-url";

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_CONCURRENCY = 8;

const defaultLogger: XcatLogger = {
  warn: (message) => process.emitWarning(message, { type: "XcatClientWarning" }),
};

function usage(message: string) {
  return createXcatError("XCAT_USAGE", message);
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw usage(`${name} must be a positive number`);
  return value;
}

/** True when every caller the gauge allows is under way (all are then waiting on this client). */
function nothingMoreCanCome(callers: CallerGauge | undefined): (() => boolean) | undefined {
  if (callers === undefined) return undefined;
  return () => {
    const limit = callers.limit();
    return limit !== undefined && callers.inProgress() >= limit;
  };
}

const LOOPBACK = /^(localhost|127(\.\d+){3}|\[::1\])$/i;

/**
 * A typed client for xCAT's REST web service (xcatws): every endpoint, grouped by resource, with
 * token handling, bounded and safe retries, and errors you can branch on.
 *
 * Create it lazily where it is used (it owns a connection pool, which cannot be serialized into
 * Pulumi state) and `close()` it when done.
 *
 * @example
 * ```ts
 * import { XcatClient, isNotFound } from "pulumi-xcat";
 *
 * const client = new XcatClient({ url: "https://mn.example", username: "root", password, caCert: "/path/ca.pem" });
 * try {
 *   await client.nodes.create("n01", { groups: "compute,all", mgt: "ipmi" });
 *   console.log(await client.nodes.get("n01"));
 * } finally {
 *   await client.close();
 * }
 * ```
 */
export class XcatClient {
  /** The base URL requests go to (origin and path, e.g. `https://mn.example/xcatws`). */
  readonly url: string;
  readonly tokens: TokensApi;
  readonly nodes: NodesApi;
  readonly osimages: OsimagesApi;
  readonly networks: NetworksApi;
  readonly policy: PolicyApi;
  readonly groups: GroupsApi;
  readonly globalconf: GlobalconfApi;
  readonly services: ServicesApi;
  readonly tables: TablesApi;

  readonly #engine: WriteTrackingEngine;
  readonly #transport: Transport;
  readonly #limiter: Limiter;
  readonly #tokenSource: TokenSource;
  readonly #redactor: Redactor;

  constructor(options: XcatClientOptions) {
    if (typeof options !== "object" || options === null) throw usage("XcatClient needs an options object");
    const { origin, basePath, href } = normalizeBaseUrl(options.url);
    const logger = options.logger ?? defaultLogger;
    const hasPassword = options.username !== undefined && options.password !== undefined;
    if (!hasPassword && options.token === undefined) {
      throw usage("XcatClient needs username and password, or a token");
    }
    if ((options.username === undefined) !== (options.password === undefined)) {
      throw usage("username and password must be given together");
    }
    const https = origin.startsWith("https:");
    const insecure = options.insecure === true;
    const connectTimeoutMs = positive(
      "connectTimeoutMs",
      options.connectTimeoutMs,
      DEFAULT_CONNECT_TIMEOUT_MS,
    );
    const requestTimeoutMs = positive(
      "requestTimeoutMs",
      options.requestTimeoutMs,
      DEFAULT_REQUEST_TIMEOUT_MS,
    );
    const maxConcurrency = positive("maxConcurrency", options.maxConcurrency, DEFAULT_MAX_CONCURRENCY);
    if (!Number.isInteger(maxConcurrency)) throw usage("maxConcurrency must be a whole number");
    let retry: ReturnType<typeof resolveRetryOptions>;
    try {
      retry = resolveRetryOptions(options.retry);
    } catch (error) {
      throw usage((error as Error).message);
    }
    const ca = options.caCert === undefined ? undefined : loadCaCert(options.caCert);

    this.url = href;
    this.#redactor = createRedactor([options.password ?? "", options.token ?? ""]);
    if (insecure && https) {
      logger.warn?.(
        `XcatClient(${href}): TLS certificate verification is disabled (insecure: true). Anyone on the ` +
          "network path can pose as the management node and read the credentials; pass caCert instead.",
      );
    }
    if (!https && !LOOPBACK.test(new URL(origin).hostname)) {
      logger.warn?.(`XcatClient(${href}): credentials and tokens will travel unencrypted over plain http.`);
    }

    this.#transport = new Transport({
      origin,
      basePath,
      ca,
      insecure,
      connectTimeoutMs,
      requestTimeoutMs,
      maxConcurrency,
      dispatcher: options.dispatcher,
    });
    this.#limiter = new Limiter(maxConcurrency);
    const credentials =
      options.username !== undefined && options.password !== undefined
        ? { username: options.username, password: options.password }
        : undefined;
    // The engine asks the token source for tokens, and the token source fetches them through the
    // tokens namespace, which is built on the engine: the closure is only called after both exist.
    this.#tokenSource = new TokenSource({
      fetchToken: credentials === undefined ? undefined : () => this.tokens.create(),
      initialToken: options.token,
      now: options.now ?? Date.now,
      onToken: (id) => this.#redactor.add(id),
    });
    const batching = options.batching ?? true;
    if (typeof batching === "object" && batching !== null) {
      for (const key of ["maxBatchSize", "allResourcesThreshold", "rateWindowMs", "cacheTtlMs"] as const) {
        positive(`batching.${key}`, batching[key], 1);
      }
      if (batching.windowMs !== undefined && !(batching.windowMs >= 0)) {
        throw usage("batching.windowMs must be a number of milliseconds, 0 or more");
      }
    }
    this.#engine = new WriteTrackingEngine(
      {
        origin,
        basePath,
        // A URL the user gave without a path is named as given, not with the /xcatws added here.
        urlAsGiven: options.urlAsGiven ?? options.url,
        transport: this.#transport,
        limiter: this.#limiter,
        tokens: this.#tokenSource,
        redactor: this.#redactor,
        retry,
        logger,
        cancel: options.signal,
      },
      {
        tuning: batching === false ? undefined : batching === true ? {} : batching,
        // Not options.now: that clock is for token expiry, and tests stop it.
        now: Date.now,
        baseUrl: href,
        nothingMoreCanCome: nothingMoreCanCome(options.callers),
      },
    );
    this.tokens = new TokensApi(this.#engine, credentials, (secret) => this.#redactor.add(secret));
    this.nodes = new NodesApi(this.#engine);
    this.osimages = new OsimagesApi(this.#engine);
    this.networks = new NetworksApi(this.#engine);
    this.policy = new PolicyApi(this.#engine);
    this.groups = new GroupsApi(this.#engine);
    this.globalconf = new GlobalconfApi(this.#engine);
    this.services = new ServicesApi(this.#engine);
    this.tables = new TablesApi(this.#engine);
  }

  /**
   * Counters since the client was created: calls, HTTP requests, retries, token requests, ...
   *
   * @example
   * ```ts
   * console.log(`${client.metrics().retries} retries`);
   * ```
   */
  metrics(): XcatClientMetrics {
    const c = this.#engine.counters;
    return {
      calls: c.calls,
      requests: c.requests,
      retries: c.retries,
      tokenRequests: this.#tokenSource.fetches,
      tokenRenewals: c.tokenRenewals,
      createChecks: c.createChecks,
      failures: c.failures,
      inFlight: this.#limiter.active,
      queued: this.#limiter.queued,
    };
  }

  /**
   * Proves the URL and credentials work with one request: with a username and password, the
   * token request (the token is kept and used by the calls that follow); with a fixed token, one
   * small read of the site table. Rejects with the client's usual errors (auth, network, TLS).
   *
   * @example
   * ```ts
   * await client.verifyConnection(); // before a long run, to fail early on a wrong password
   * ```
   */
  async verifyConnection(): Promise<void> {
    if (this.#tokenSource.canRenew) await this.#tokenSource.current();
    else await this.globalconf.getAttrs(["master"]);
  }

  /**
   * Closes the connection pool (not a dispatcher passed in the options). Later calls fail.
   *
   * @example
   * ```ts
   * await client.close();
   * ```
   */
  async close(): Promise<void> {
    await this.#transport.close();
  }

  /**
   * Removes this client's secrets (password, tokens) from a text, for callers that log errors
   * or responses themselves.
   *
   * @example
   * ```ts
   * logger.error(client.redact(String(error)));
   * ```
   */
  redact(text: string): string {
    return this.#redactor.text(text);
  }
}
