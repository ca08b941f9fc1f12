/**
 * The retry policy, as data and pure functions, plus the one p-retry wrapper that applies it.
 * Nothing else in the client retries, and undici's retry interceptor is not used: two layers
 * would multiply the attempts.
 */
import pRetry, { AbortError } from "p-retry";
import { isXcatError, TRANSIENT_STATUSES, type XcatError, XcatErrorCode } from "./errors";

/**
 * What a request does, which decides what may be repeated:
 * - `read` (GET), `write` (PUT) and `delete` (DELETE) are idempotent at xcatws;
 * - `token` (POST /tokens) only adds a token row, so repeating it is harmless;
 * - `create` (POST that defines an object) is checked with a read before it is sent again;
 * - `action` (any other POST: makedns, updatenode, mkvm, ...) is repeated only when the server
 *   cannot have acted on it.
 */
export type RequestKind = "read" | "write" | "delete" | "token" | "create" | "action";

/** Retry settings; see {@link DEFAULT_RETRY}. */
export interface RetryOptions {
  /** Attempts in total, the first included. 1 disables retrying. Default 5. */
  readonly attempts?: number;
  /** Stop scheduling retries once this much time has passed since the first attempt. Default 60 s. */
  readonly maxTotalMs?: number;
  /** Delay before the first retry, before jitter. Default 250 ms. */
  readonly minDelayMs?: number;
  /** Upper bound of one delay, including a server's Retry-After. Default 8 s. */
  readonly maxDelayMs?: number;
}

export type ResolvedRetryOptions = Required<RetryOptions>;

/**
 * The defaults: a handful of attempts with exponential backoff and jitter, bounded in total time.
 *
 * @example
 * ```ts
 * new XcatClient({ url, username, password, retry: { ...DEFAULT_RETRY, attempts: 3 } });
 * ```
 */
export const DEFAULT_RETRY: ResolvedRetryOptions = {
  attempts: 5,
  maxTotalMs: 60_000,
  minDelayMs: 250,
  maxDelayMs: 8_000,
};

/** Statuses worth another attempt of an idempotent request. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = TRANSIENT_STATUSES;

/**
 * Statuses that say the server did not carry the request out (408: it gave up waiting for it, or
 * at xcatws could not reach xcatd; 429: refused for rate). Any request may be repeated after them.
 */
export const NOT_APPLIED_STATUSES: ReadonlySet<number> = new Set([408, 429]);

/**
 * Network error codes worth another attempt. Codes for failures before the request was sent are
 * marked on the error (`maybeApplied: false`) by the transport.
 */
export const RETRYABLE_NETWORK_CODES: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_REQ_RETRY",
  "UND_ERR_RES_CONTENT_LENGTH_MISMATCH",
]);

/** True when the failure is transient at all, whatever the request was. */
function isTransientFailure(error: XcatError): boolean {
  switch (error.code) {
    case XcatErrorCode.timeout:
      return true;
    case XcatErrorCode.network:
      return error.networkCode === undefined || RETRYABLE_NETWORK_CODES.has(error.networkCode);
    case XcatErrorCode.http:
      return error.status !== undefined && RETRYABLE_STATUSES.has(error.status);
    default:
      return false;
  }
}

/**
 * True when the server certainly did not act on the request: the connection never carried it,
 * or the server said 408/429.
 *
 * @example
 * ```ts
 * wasNotApplied(createXcatError("XCAT_HTTP", "...", { status: 429 })); // true
 * ```
 */
export function wasNotApplied(error: unknown): boolean {
  if (!isXcatError(error) || !isTransientFailure(error)) return false;
  if (error.code === XcatErrorCode.http)
    return error.status !== undefined && NOT_APPLIED_STATUSES.has(error.status);
  return error.maybeApplied === false;
}

/**
 * True when a failed request may or may not have been carried out: the connection dropped after
 * sending, no answer came in time, or a gateway answered 502/503/504.
 *
 * @example
 * ```ts
 * isAmbiguousFailure(createXcatError("XCAT_HTTP", "...", { status: 503 })); // true
 * ```
 */
export function isAmbiguousFailure(error: unknown): boolean {
  return isXcatError(error) && isTransientFailure(error) && !wasNotApplied(error);
}

/**
 * The retry policy: whether a request of this kind that failed with this error may be sent again.
 * For `create` an ambiguous failure also answers true, but the caller must first read the object
 * ({@link mustCheckBeforeRetry}).
 *
 * @example
 * ```ts
 * shouldRetry("read", createXcatError("XCAT_HTTP", "...", { status: 503 })); // true
 * shouldRetry("action", createXcatError("XCAT_HTTP", "...", { status: 503 })); // false
 * ```
 */
export function shouldRetry(kind: RequestKind, error: unknown): boolean {
  if (!isXcatError(error) || !isTransientFailure(error)) return false;
  switch (kind) {
    case "read":
    case "write":
    case "delete":
    case "token":
    case "create":
      return true;
    case "action":
      return wasNotApplied(error);
  }
}

/**
 * For creates: true when the failure leaves it unknown whether the object was created, so the
 * next attempt must read it first instead of posting again.
 *
 * @example
 * ```ts
 * mustCheckBeforeRetry("create", createXcatError("XCAT_NETWORK", "...", { maybeApplied: true })); // true
 * ```
 */
export function mustCheckBeforeRetry(kind: RequestKind, error: unknown): boolean {
  return kind === "create" && isAmbiguousFailure(error);
}

/**
 * Milliseconds to wait according to a Retry-After header (delta-seconds or an HTTP date), or
 * undefined when there is none or it cannot be read.
 *
 * @example
 * ```ts
 * parseRetryAfter("2"); // 2000
 * ```
 */
export function parseRetryAfter(
  header: string | readonly string[] | undefined,
  now: number = Date.now(),
): number | undefined {
  const value = (typeof header === "string" ? header : header?.[0])?.trim();
  if (value === undefined || value.length === 0) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Merges caller settings with the defaults and checks them.
 *
 * @example
 * ```ts
 * resolveRetryOptions({ attempts: 3 }).maxDelayMs; // 8000
 * ```
 */
export function resolveRetryOptions(options: RetryOptions | undefined): ResolvedRetryOptions {
  const resolved = { ...DEFAULT_RETRY, ...stripUndefined(options ?? {}) };
  const { attempts, maxTotalMs, minDelayMs, maxDelayMs } = resolved;
  if (!Number.isInteger(attempts) || attempts < 1)
    throw new RangeError("retry.attempts must be an integer >= 1");
  for (const [name, value] of Object.entries({ maxTotalMs, minDelayMs, maxDelayMs })) {
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`retry.${name} must be a number >= 0`);
  }
  return resolved;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Thrown by an attempt to end the whole call with `error` at once, whatever the policy says
 * (e.g. a token request that already retried on its own).
 *
 * @example
 * ```ts
 * throw new StopRetrying(error);
 * ```
 */
export class StopRetrying extends Error {
  readonly error: XcatError;
  constructor(error: XcatError) {
    super(error.message);
    this.name = "StopRetrying";
    this.error = error;
  }
}

/** Hooks of {@link runWithRetry}. */
export interface RetryHooks {
  /** Called before each retry with the error that caused it and the delay chosen. */
  readonly onRetry?: (info: { error: XcatError; attempt: number; delayMs: number }) => void;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Runs `attempt` with p-retry under the policy for `kind`. The attempt receives its number (1 for
 * the first) and the error of the previous attempt, so a create can read before re-posting.
 * The final error carries the number of attempts made.
 *
 * @example
 * ```ts
 * await runWithRetry("read", DEFAULT_RETRY, (n) => send(), {});
 * ```
 */
export async function runWithRetry<T>(
  kind: RequestKind,
  options: ResolvedRetryOptions,
  attempt: (attemptNumber: number, previousError: XcatError | undefined) => Promise<T>,
  hooks: RetryHooks = {},
): Promise<T> {
  let previous: XcatError | undefined;
  let attempts = 0;
  try {
    return await pRetry(
      async (attemptNumber) => {
        attempts = attemptNumber;
        try {
          return await attempt(attemptNumber, previous);
        } catch (error) {
          if (error instanceof StopRetrying) throw new AbortError(error.error);
          if (!isXcatError(error)) throw new AbortError(asError(error));
          previous = error;
          throw error;
        }
      },
      {
        retries: options.attempts - 1,
        maxRetryTime: options.maxTotalMs,
        minTimeout: options.minDelayMs,
        maxTimeout: options.maxDelayMs,
        factor: 2,
        randomize: true,
        signal: hooks.signal,
        shouldRetry: ({ error }) => shouldRetry(kind, error),
        onFailedAttempt: async ({ error, attemptNumber, retriesLeft, retryDelay }) => {
          if (retriesLeft === 0 || !isXcatError(error) || !shouldRetry(kind, error)) return;
          // p-retry computes its own backoff; a longer Retry-After from the server wins, within
          // the per-delay cap.
          const extra =
            error.retryAfterMs === undefined
              ? 0
              : Math.min(error.retryAfterMs, options.maxDelayMs) - retryDelay;
          hooks.onRetry?.({ error, attempt: attemptNumber, delayMs: retryDelay + Math.max(0, extra) });
          if (extra > 0) await sleep(extra, hooks.signal);
        },
      },
    );
  } catch (error) {
    if (isXcatError(error) && attempts > 1 && error.attempts === undefined) {
      Object.defineProperty(error, "attempts", { value: attempts });
      if (!error.message.includes(" attempts)")) {
        Object.defineProperty(error, "message", { value: `${error.message} (after ${attempts} attempts)` });
      }
    }
    throw error;
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
