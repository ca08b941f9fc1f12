/**
 * The client's error family. Every error is an {@link XcatError} with a stable `code`; the guards
 * below recognise them through a `Symbol.for` brand rather than `instanceof`, because Pulumi's
 * provider host re-creates our classes from serialized code and two copies of a class are never
 * `instanceof` each other, while `Symbol.for` keys are shared by the whole process.
 */

const BRAND = Symbol.for("pulumi-xcat.XcatError");

/** Stable codes, one per error class. They are part of the public API: never rename one. */
export const XcatErrorCode = {
  http: "XCAT_HTTP",
  notFound: "XCAT_NOT_FOUND",
  alreadyExists: "XCAT_ALREADY_EXISTS",
  auth: "XCAT_AUTH",
  network: "XCAT_NETWORK",
  timeout: "XCAT_TIMEOUT",
  tls: "XCAT_TLS",
  responseShape: "XCAT_RESPONSE_SHAPE",
  usage: "XCAT_USAGE",
  cancelled: "XCAT_CANCELLED",
} as const;
export type XcatErrorCode = (typeof XcatErrorCode)[keyof typeof XcatErrorCode];

/** What an error knows about the request that failed. Every field is already redacted. */
export interface XcatErrorDetails {
  /** HTTP method of the failed request. */
  readonly method?: string | undefined;
  /** Redacted URL of the failed request. */
  readonly url?: string | undefined;
  /** HTTP status, when a response arrived. */
  readonly status?: number | undefined;
  /** xCAT's `errorcode` ("1" from commands, "2" from the web layer), as a string. */
  readonly errorcode?: string | undefined;
  /** xCAT's messages, in order (the web layer sends one, commands may send several). */
  readonly messages?: readonly string[] | undefined;
  /** How many HTTP attempts were made before giving up. */
  readonly attempts?: number | undefined;
  /** undici's or Node's error code for network failures (ECONNRESET, UND_ERR_SOCKET, ...). */
  readonly networkCode?: string | undefined;
  /** For network failures: whether the request may have reached the server before it failed. */
  readonly maybeApplied?: boolean | undefined;
  /** Retry-After in milliseconds, when the server sent one. */
  readonly retryAfterMs?: number | undefined;
  readonly cause?: unknown;
}

/**
 * Base of every error the client throws. Prefer the guards ({@link isNotFound}, ...) to
 * `instanceof`: they also work across copies of this module.
 *
 * @example
 * ```ts
 * try {
 *   await client.nodes.get("n01");
 * } catch (error) {
 *   if (isXcatError(error)) console.error(error.code, error.status, error.messages);
 * }
 * ```
 */
export class XcatError extends Error {
  readonly code: XcatErrorCode;
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly status: number | undefined;
  readonly errorcode: string | undefined;
  readonly messages: readonly string[];
  readonly attempts: number | undefined;
  readonly networkCode: string | undefined;
  readonly maybeApplied: boolean | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(code: XcatErrorCode, message: string, details: XcatErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    Object.defineProperty(this, BRAND, { value: true, enumerable: false });
    this.name = "XcatError";
    this.code = code;
    this.method = details.method;
    this.url = details.url;
    this.status = details.status;
    this.errorcode = details.errorcode;
    this.messages = details.messages ?? [];
    this.attempts = details.attempts;
    this.networkCode = details.networkCode;
    this.maybeApplied = details.maybeApplied;
    this.retryAfterMs = details.retryAfterMs;
  }
}

type XcatErrorClass = new (message: string, details?: XcatErrorDetails) => XcatError;

// One factory instead of nine hand-written classes (undici's errors.js shows the cost of copying).
function defineXcatError(name: string, code: XcatErrorCode): XcatErrorClass {
  const ErrorClass = class extends XcatError {
    constructor(message: string, details: XcatErrorDetails = {}) {
      super(code, message, details);
      this.name = name;
    }
  };
  Object.defineProperty(ErrorClass, "name", { value: name });
  return ErrorClass;
}

/** A non-2xx answer that has no more specific class. */
export const XcatHttpError = defineXcatError("XcatHttpError", XcatErrorCode.http);
/** The named object does not exist (xCAT: 403 "Could not find an object named ..."). */
export const XcatNotFoundError = defineXcatError("XcatNotFoundError", XcatErrorCode.notFound);
/** A create found the object already there. */
export const XcatAlreadyExistsError = defineXcatError("XcatAlreadyExistsError", XcatErrorCode.alreadyExists);
/** Credentials or token refused (xCAT: 401 "Authentication failure", also for policy denials). */
export const XcatAuthError = defineXcatError("XcatAuthError", XcatErrorCode.auth);
/** The connection failed or was dropped before a complete response arrived. */
export const XcatNetworkError = defineXcatError("XcatNetworkError", XcatErrorCode.network);
/** No complete response within `requestTimeoutMs` (or the connect timeout). */
export const XcatTimeoutError = defineXcatError("XcatTimeoutError", XcatErrorCode.timeout);
/** The server's TLS certificate could not be verified. */
export const XcatTlsError = defineXcatError("XcatTlsError", XcatErrorCode.tls);
/** A 2xx answer whose body is not what the service description promises. */
export const XcatResponseShapeError = defineXcatError("XcatResponseShapeError", XcatErrorCode.responseShape);
/** The caller passed something the client refuses to send (bad name, bad option, closed client). */
export const XcatUsageError = defineXcatError("XcatUsageError", XcatErrorCode.usage);
/**
 * The client's `signal` was aborted: the request was cut off in flight (`maybeApplied` true for a
 * write: it was sent and its answer never arrived) or never sent (`maybeApplied` false).
 */
export const XcatCancelledError = defineXcatError("XcatCancelledError", XcatErrorCode.cancelled);

const CLASS_BY_CODE: Readonly<Record<XcatErrorCode, XcatErrorClass>> = {
  XCAT_HTTP: XcatHttpError,
  XCAT_NOT_FOUND: XcatNotFoundError,
  XCAT_ALREADY_EXISTS: XcatAlreadyExistsError,
  XCAT_AUTH: XcatAuthError,
  XCAT_NETWORK: XcatNetworkError,
  XCAT_TIMEOUT: XcatTimeoutError,
  XCAT_TLS: XcatTlsError,
  XCAT_RESPONSE_SHAPE: XcatResponseShapeError,
  XCAT_USAGE: XcatUsageError,
  XCAT_CANCELLED: XcatCancelledError,
};

/**
 * Builds the error class that belongs to `code`. The client creates all its errors through this.
 *
 * @example
 * ```ts
 * throw createXcatError("XCAT_USAGE", "node name is empty");
 * ```
 */
export function createXcatError(
  code: XcatErrorCode,
  message: string,
  details: XcatErrorDetails = {},
): XcatError {
  return new CLASS_BY_CODE[code](message, details);
}

/**
 * True for any error thrown by this client (any copy of it).
 *
 * @example
 * ```ts
 * if (isXcatError(error)) console.log(error.code);
 * ```
 */
export function isXcatError(error: unknown): error is XcatError {
  return typeof error === "object" && error !== null && (error as { [BRAND]?: unknown })[BRAND] === true;
}

const hasCode = (error: unknown, ...codes: XcatErrorCode[]): error is XcatError =>
  isXcatError(error) && codes.includes(error.code);

/**
 * The object does not exist. xCAT says so with a 403, never a 404; the client maps it.
 *
 * @example
 * ```ts
 * const attrs = await client.nodes.get("n01").catch((e) => (isNotFound(e) ? undefined : Promise.reject(e)));
 * ```
 */
export const isNotFound = (error: unknown): error is XcatError => hasCode(error, XcatErrorCode.notFound);

/**
 * A create found the object already defined.
 *
 * @example
 * ```ts
 * await client.nodes.create("n01", { groups: "all" }).catch((e) => { if (!isAlreadyExists(e)) throw e; });
 * ```
 */
export const isAlreadyExists = (error: unknown): error is XcatError =>
  hasCode(error, XcatErrorCode.alreadyExists);

/**
 * Credentials, token or policy refused the request (renewing the token once did not help).
 *
 * @example
 * ```ts
 * if (isAuthError(error)) console.error("check xcat:username / xcat:password");
 * ```
 */
export const isAuthError = (error: unknown): error is XcatError => hasCode(error, XcatErrorCode.auth);

/**
 * The connection failed or dropped (not a timeout, not TLS).
 *
 * @example
 * ```ts
 * if (isNetworkError(error)) console.error("is the management node reachable?", error.networkCode);
 * ```
 */
export const isNetworkError = (error: unknown): error is XcatError => hasCode(error, XcatErrorCode.network);

/**
 * No complete response within the configured timeout.
 *
 * @example
 * ```ts
 * if (isTimeoutError(error)) console.error(`gave up after ${error.attempts} attempts`);
 * ```
 */
export const isTimeoutError = (error: unknown): error is XcatError => hasCode(error, XcatErrorCode.timeout);

/**
 * The server's certificate could not be verified; pass its CA as `caCert`.
 *
 * @example
 * ```ts
 * if (isTlsError(error)) console.error(error.message);
 * ```
 */
export const isTlsError = (error: unknown): error is XcatError => hasCode(error, XcatErrorCode.tls);

/**
 * A 2xx body of the wrong shape (the server and this client disagree about the API).
 *
 * @example
 * ```ts
 * if (isResponseShapeError(error)) console.error("unexpected answer from xcatws", error.message);
 * ```
 */
export const isResponseShapeError = (error: unknown): error is XcatError =>
  hasCode(error, XcatErrorCode.responseShape);

/**
 * The caller's input was refused before anything was sent.
 *
 * @example
 * ```ts
 * if (isUsageError(error)) console.error(error.message); // e.g. "node name 'a/b' contains '/' ..."
 * ```
 */
export const isUsageError = (error: unknown): error is XcatError => hasCode(error, XcatErrorCode.usage);

/**
 * The client was cancelled (its `signal` aborted) before this request's answer arrived. For a write
 * `maybeApplied` says whether it had been sent: then xCAT may or may not have carried it out.
 *
 * @example
 * ```ts
 * if (isCancelled(error) && error.maybeApplied) console.error("read the object back before trusting it");
 * ```
 */
export const isCancelled = (error: unknown): error is XcatError => hasCode(error, XcatErrorCode.cancelled);

/** Statuses that say "try again later": the request was not, or may not have been, carried out. */
export const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([408, 429, 502, 503, 504]);

/**
 * A failure that may go away by itself: network errors, timeouts, 408/429/502/503/504. The client
 * has already retried these as far as its retry policy allows.
 *
 * @example
 * ```ts
 * if (isTransientError(error)) scheduleAnotherTry();
 * ```
 */
export function isTransientError(error: unknown): error is XcatError {
  if (!isXcatError(error)) return false;
  if (error.code === XcatErrorCode.network || error.code === XcatErrorCode.timeout) return true;
  return (
    error.code === XcatErrorCode.http && error.status !== undefined && TRANSIENT_STATUSES.has(error.status)
  );
}
