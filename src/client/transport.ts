/**
 * One HTTP exchange over undici: the keep-alive connection pool, TLS settings, the per-attempt
 * timeout, reading the whole body, and turning undici's and Node's failures into XcatErrors.
 * It knows nothing about xCAT's bodies, tokens or retries.
 */
import { readFileSync } from "node:fs";
import { connect as tlsConnect } from "node:tls";
import { Agent, type Dispatcher } from "undici";
import { createXcatError, type XcatError } from "./errors";
import { decodeBody } from "./quirks";

/** What the transport needs to create its connection pool. */
export interface TransportOptions {
  /** Origin of the service, e.g. `https://mn.example:443`. */
  readonly origin: string;
  /** Path of the service below the origin (`/xcatws`), for the URL an error suggests. */
  readonly basePath?: string | undefined;
  /** PEM text of the CA that signed the server certificate. */
  readonly ca?: string | undefined;
  readonly insecure: boolean;
  readonly connectTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly maxConcurrency: number;
  /** A dispatcher supplied by the caller (MockAgent, proxy): used as is, never closed by us. */
  readonly dispatcher?: Dispatcher | undefined;
}

export interface RawRequest {
  readonly method: "GET" | "PUT" | "POST" | "DELETE";
  /** Path and query below the origin, already encoded. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

/** Context for error messages: the method and the already redacted URL. */
export interface ErrorContext {
  readonly method: string;
  /** Full redacted URL, kept on the error. */
  readonly url: string;
  /** Redacted path and query, shown in the message. */
  readonly display: string;
}

// Failures before the request left this process: the server cannot have acted on it.
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
]);
const TLS_CODES = new Set([
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_UNTRUSTED",
  "CERT_SIGNATURE_FAILURE",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

/** Text of the hint shown whenever the server certificate cannot be verified. */
export const TLS_HINT =
  "Pass the management node's CA certificate as the caCert option (PEM text or a file path; on an " +
  "xCAT management node it is /install/postscripts/ca/ca-cert.pem, for the emulator the CA path it " +
  "prints), or set insecure: true as a last resort.";

/**
 * Reads `caCert`: PEM text is used as is, anything else is taken as a file path.
 *
 * @example
 * ```ts
 * loadCaCert("/install/postscripts/ca/ca-cert.pem");
 * ```
 */
export function loadCaCert(caCert: string): string {
  if (caCert.includes("-----BEGIN")) return caCert;
  try {
    return readFileSync(caCert, "utf8");
  } catch (error) {
    throw createXcatError("XCAT_USAGE", `caCert: cannot read the CA certificate file '${caCert}'`, {
      cause: error,
    });
  }
}

/**
 * The connection pool of one client and its single-exchange `send`. The undici Agent is created
 * on first use, so constructing a client opens nothing.
 */
export class Transport {
  readonly #options: TransportOptions;
  #agent: Agent | undefined;
  #closed = false;
  /** Whether an http:// origin answers a TLS handshake: asked at most once per transport. */
  #speaksTls: Promise<boolean> | undefined;

  constructor(options: TransportOptions) {
    this.#options = options;
  }

  get #dispatcher(): Dispatcher {
    if (this.#options.dispatcher) return this.#options.dispatcher;
    if (this.#agent === undefined) {
      this.#agent = new Agent({
        connections: this.#options.maxConcurrency,
        keepAliveTimeout: 10_000,
        connect: {
          timeout: this.#options.connectTimeoutMs,
          ...(this.#options.ca === undefined ? {} : { ca: this.#options.ca }),
          rejectUnauthorized: !this.#options.insecure,
        },
      });
    }
    return this.#agent;
  }

  /**
   * Sends one request and reads the whole answer. Throws XcatNetworkError, XcatTimeoutError or
   * XcatTlsError; any HTTP status is returned, not thrown.
   */
  async send(request: RawRequest, context: ErrorContext): Promise<RawResponse> {
    if (this.#closed)
      throw createXcatError("XCAT_USAGE", `${context.method} ${context.display}: the client is closed`);
    const timeout = AbortSignal.timeout(this.#options.requestTimeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    try {
      const response = await this.#dispatcher.request({
        origin: this.#options.origin,
        path: request.path,
        method: request.method,
        headers: request.headers,
        body: request.body ?? null,
        signal,
        // undici's own timers stay as a backstop behind the AbortSignal.
        headersTimeout: this.#options.requestTimeoutMs + 1_000,
        bodyTimeout: this.#options.requestTimeoutMs + 1_000,
      });
      const bytes = new Uint8Array(await response.body.arrayBuffer());
      return { status: response.statusCode, headers: response.headers, text: decodeBody(bytes) };
    } catch (error) {
      if (request.signal?.aborted && !timeout.aborted) throw request.signal.reason;
      const failure = transportError(
        error,
        context,
        timeout.aborted ? this.#options.requestTimeoutMs : undefined,
      );
      if (await this.#isHttpsServer(failure)) throw plainHttpToHttpsError(failure, context, this.#httpsUrl());
      throw failure;
    }
  }

  /**
   * A TLS server closes the connection, without an answer, on a plain-HTTP request (Node's does;
   * so does any server that only speaks TLS on the port), which looks exactly like a dropped
   * connection. For an http:// origin, the first such close is followed by one TLS handshake
   * with the same host and port: if it succeeds, the URL should have been https://. A plain-HTTP
   * server fails that handshake at once, and the failure is retried as before. Skipped for a
   * caller's own dispatcher (a proxy or a mock: there is no direct socket to ask).
   */
  async #isHttpsServer(failure: XcatError): Promise<boolean> {
    if (this.#options.dispatcher !== undefined || !this.#options.origin.startsWith("http:")) return false;
    if (failure.networkCode !== "UND_ERR_SOCKET" && failure.networkCode !== "ECONNRESET") return false;
    this.#speaksTls ??= probeTls(this.#options.origin, Math.min(this.#options.connectTimeoutMs, 5_000));
    return this.#speaksTls;
  }

  #httpsUrl(): string {
    const url = new URL(this.#options.origin);
    url.protocol = "https:";
    return `${url.origin}${this.#options.basePath ?? ""}`;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const agent = this.#agent;
    this.#agent = undefined;
    await agent?.close();
  }
}

/** True when `origin` (host and port) completes a TLS handshake within `timeoutMs`. */
function probeTls(origin: string, timeoutMs: number): Promise<boolean> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = tlsConnect({
      host: hostname.replace(/^\[|\]$/g, ""),
      port: Number(port || 80),
      // Only the protocol is in question; the certificate is checked by the real request later.
      rejectUnauthorized: false,
      ...(/^[\d.]+$|:/.test(hostname) ? {} : { servername: hostname }),
    });
    const done = (speaksTls: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(speaksTls);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once("secureConnect", () => done(true));
    socket.once("error", () => done(false));
    socket.once("close", () => done(false));
  });
}

/**
 * The error for an http:// URL that points at an HTTPS server: not retried (XCAT_TLS), and it
 * says which URL to use.
 *
 * @example
 * ```ts
 * plainHttpToHttpsError(failure, context, "https://mn:443/xcatws");
 * ```
 */
export function plainHttpToHttpsError(
  failure: XcatError,
  context: ErrorContext,
  httpsUrl: string,
): XcatError {
  return createXcatError(
    "XCAT_TLS",
    `${context.method} ${context.display} failed: the server speaks HTTPS, and it closed the connection on ` +
      `this plain-HTTP request (${failure.networkCode}). The URL starts with http://; use https:// ` +
      `instead: ${httpsUrl}`,
    {
      method: context.method,
      url: context.url,
      networkCode: failure.networkCode,
      maybeApplied: false,
      cause: failure,
    },
  );
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === "string") return code;
  // Happy-eyeballs connects fail with an AggregateError holding one error per address.
  if (Array.isArray(errors) && errors.length > 0) return errorCode(errors[0]);
  return cause === undefined ? undefined : errorCode(cause);
}

/**
 * Turns a failure of one exchange into the client's error family.
 *
 * @example
 * ```ts
 * transportError(Object.assign(new Error("x"), { code: "ECONNRESET" }), { method: "GET", url, display: "/xcatws/nodes" });
 * ```
 */
export function transportError(error: unknown, context: ErrorContext, timedOutAfterMs?: number): XcatError {
  const prefix = `${context.method} ${context.display} failed:`;
  const base = { method: context.method, url: context.url, cause: error };
  const code = errorCode(error);
  const name = typeof error === "object" && error !== null ? (error as { name?: unknown }).name : undefined;
  if (
    timedOutAfterMs !== undefined ||
    name === "TimeoutError" ||
    code === "UND_ERR_HEADERS_TIMEOUT" ||
    code === "UND_ERR_BODY_TIMEOUT"
  ) {
    const after = timedOutAfterMs === undefined ? "" : ` within ${timedOutAfterMs} ms`;
    return createXcatError("XCAT_TIMEOUT", `${prefix} no complete response${after}`, {
      ...base,
      networkCode: code ?? "ETIMEDOUT",
      maybeApplied: true,
    });
  }
  if (code === "UND_ERR_CONNECT_TIMEOUT") {
    return createXcatError("XCAT_TIMEOUT", `${prefix} could not connect in time`, {
      ...base,
      networkCode: code,
      maybeApplied: false,
    });
  }
  if (code !== undefined && (TLS_CODES.has(code) || code.startsWith("ERR_TLS_CERT"))) {
    return createXcatError(
      "XCAT_TLS",
      `${prefix} the server's TLS certificate could not be verified (${code}). ${TLS_HINT}`,
      {
        ...base,
        networkCode: code,
        maybeApplied: false,
      },
    );
  }
  if (code === "ERR_SSL_WRONG_VERSION_NUMBER") {
    return createXcatError(
      "XCAT_TLS",
      `${prefix} TLS handshake failed (${code}); is the URL https:// for a plain-HTTP server?`,
      { ...base, networkCode: code, maybeApplied: false },
    );
  }
  const reason = error instanceof Error && error.message.length > 0 ? ` (${error.message})` : "";
  return createXcatError("XCAT_NETWORK", `${prefix} connection error ${code ?? "unknown"}${reason}`, {
    ...base,
    networkCode: code,
    maybeApplied: code === undefined ? true : !NOT_SENT_CODES.has(code),
  });
}
