/**
 * Public option and result types shared by the client's namespaces.
 */
import type { Dispatcher } from "undici";
import type { AttributeValue } from "./quirks";
import type { ReadBatcherTuning } from "./read-batcher";
import type { RetryOptions } from "./retry";

/**
 * Where the client's log lines go. Every method is optional; lines are already redacted.
 * `debug`: one line per HTTP exchange; `info`: retries and token renewals; `warn`: insecure TLS
 * and other things a person should fix.
 *
 * @example
 * ```ts
 * const logger: XcatLogger = { warn: (m) => console.warn(m), debug: (m) => console.debug(m) };
 * ```
 */
export interface XcatLogger {
  debug?(message: string): void;
  info?(message: string): void;
  warn?(message: string): void;
}

/**
 * Options of {@link XcatClient}. Give `username` and `password` (the client obtains and renews
 * tokens) or a `token` (used until the server refuses it), or both.
 *
 * @example
 * ```ts
 * const options: XcatClientOptions = {
 *   url: "https://mn.cluster.example/xcatws",
 *   username: "root",
 *   password: secret,
 *   caCert: "/install/postscripts/ca/ca-cert.pem",
 * };
 * ```
 */
/**
 * How many calls the client's user has under way, and how many it can have at most: a Pulumi
 * provider counts the engine's calls in progress, whose number the engine's parallelism bounds.
 */
export interface CallerGauge {
  /** Calls under way now, each of which may be waiting on this client. */
  readonly inProgress: () => number;
  /** The most calls that can be under way at once; `undefined` when unknown. */
  readonly limit: () => number | undefined;
}

export interface XcatClientOptions {
  /** Base URL of xcatws. A URL without a path gets `/xcatws`. */
  readonly url: string;
  /**
   * The URL as the user wrote it, when a caller normalized it before `url` (the provider's
   * settings add `/xcatws`): messages that name the server name this one. Default: `url`.
   */
  readonly urlAsGiven?: string | undefined;
  readonly username?: string | undefined;
  readonly password?: string | undefined;
  /** An existing token id (X-Auth-Token). */
  readonly token?: string | undefined;
  /** The CA certificate that signed the server's certificate: PEM text or a file path. */
  readonly caCert?: string | undefined;
  /** Skip certificate verification. Never the default; logs a warning. */
  readonly insecure?: boolean | undefined;
  /** Milliseconds to establish a connection. Default 10 000. */
  readonly connectTimeoutMs?: number | undefined;
  /** Milliseconds for one attempt, from sending to the last byte of the answer. Default 120 000. */
  readonly requestTimeoutMs?: number | undefined;
  readonly retry?: RetryOptions | undefined;
  /** Requests in flight at once; the rest wait. Default 8. */
  readonly maxConcurrency?: number | undefined;
  /**
   * Merge concurrent `get`s of one object type into batched requests, and answer a stream of
   * reads (a refresh) from one ALLRESOURCES request; a read never sees data older than a write
   * this client finished before it. On by default; `false` sends one request per read.
   */
  readonly batching?: boolean | ReadBatcherTuning | undefined;
  /**
   * Who calls the client, when the caller can say: merged requests then go out as soon as every
   * caller there can be is waiting on them, instead of holding on for more (see {@link CallerGauge}).
   */
  readonly callers?: CallerGauge | undefined;
  /**
   * Cancels the client when aborted: every request in flight is cut off (undici aborts it) and
   * every later call fails at once without being sent, with an XcatCancelledError whose
   * `maybeApplied` is true for a write that was sent and never answered. Merged and batched
   * requests are cancelled too, which a call's own `signal` cannot do (such calls are sent alone).
   */
  readonly signal?: AbortSignal | undefined;
  /** An undici dispatcher to send through (a MockAgent in tests, a proxy agent). Not closed by `close()`. */
  readonly dispatcher?: Dispatcher | undefined;
  readonly logger?: XcatLogger | undefined;
  /** The clock used for token expiry (tests). Default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

/**
 * xcatws's general query options, for the calls where they mean something.
 * `xcoll` makes the server group identical results; the client splits them again, so the result
 * keeps one entry per object. `debug` output is logged (redacted) at debug level.
 *
 * @example
 * ```ts
 * await client.nodes.getMany("rack1", { xcoll: true });
 * ```
 */
export interface QueryOptions {
  readonly pretty?: boolean | undefined;
  readonly debug?: boolean | undefined;
  readonly xcoll?: boolean | undefined;
}

/**
 * Options every call accepts.
 *
 * @example
 * ```ts
 * await client.nodes.list({ signal: AbortSignal.timeout(5_000) });
 * ```
 */
export interface CallOptions extends QueryOptions {
  /** Cancels the call, including retries not yet started. */
  readonly signal?: AbortSignal | undefined;
}

/** An object's attributes as xCAT names them (`groups`, `mgt`, `netboot`, ...). */
export type Attributes = Readonly<Record<string, string>>;

/**
 * Attributes to write. Lists (for `groups`, `postscripts`, ...) may be arrays; they are joined
 * with ','. An empty string clears an attribute.
 *
 * @example
 * ```ts
 * const attrs: AttributeInput = { groups: ["all", "compute"], mgt: "ipmi" };
 * ```
 */
export type AttributeInput = Readonly<Record<string, AttributeValue>>;

/**
 * Counters of one client since it was created.
 *
 * @example
 * ```ts
 * const { requests, retries } = client.metrics();
 * ```
 */
export interface XcatClientMetrics {
  /** Logical calls made through the API. */
  readonly calls: number;
  /** HTTP exchanges sent (attempts, token requests and read-backs included). */
  readonly requests: number;
  /** Attempts beyond the first of a call. */
  readonly retries: number;
  /** POST /tokens requests. */
  readonly tokenRequests: number;
  /** Times a refused token was replaced and the request repeated. */
  readonly tokenRenewals: number;
  /** Reads made to learn whether a create whose answer was lost took place. */
  readonly createChecks: number;
  /** Calls that ended in an error. */
  readonly failures: number;
  readonly inFlight: number;
  readonly queued: number;
}
