/**
 * One logical request to Confluent's API: the session, the concurrency slot, the HTTP exchange,
 * bounded retries, and the translation of Confluent's answers into a body or a client error.
 * Built on the backend-neutral transport, retry policy, limiter, redaction and error family.
 *
 * Sessions as Confluent does them (httpapi.py 3.15.6 `_authorize_request`, lines 293-410): a
 * request with HTTP Basic opens a session and the answer sets `confluentsessionid`; later
 * requests send it back as the `ConfluentSession` header and skip the password check; a session
 * idle for 90 s is gone, and a request with it answers 401. The client then sends Basic once
 * more, which opens a new session, before it reports an authentication failure.
 */
import { cancelledError } from "../cancelled";
import { createXcatError, isCancelled, type XcatError, type XcatErrorCode } from "../errors";
import type { Limiter } from "../limiter";
import type { Redactor } from "../redact";
import { parseRetryAfter, type RequestKind, type ResolvedRetryOptions, runWithRetry } from "../retry";
import type { RawResponse, Transport } from "../transport";
import type { XcatLogger } from "../types";
import { xcatwsAnsweredConfluent } from "../wrong-backend";
import { ErrorBody } from "./bodies";

export interface ConfluentRequest {
  readonly method: "GET" | "PUT" | "POST" | "DELETE";
  /** Path below the API's base, already encoded, starting with `/`. */
  readonly path: string;
  readonly body?: unknown;
  /** Defaults: GET read, PUT write, DELETE delete, POST create. */
  readonly kind?: RequestKind;
  readonly signal?: AbortSignal | undefined;
}

export interface RequesterParts {
  readonly transport: Transport;
  readonly limiter: Limiter;
  readonly retry: ResolvedRetryOptions;
  readonly redactor: Redactor;
  readonly logger: XcatLogger;
  /** Full origin + base path, for error messages. */
  readonly baseUrl: string;
  /** The URL as the user gave it, for the wrong-backend sentence; default: baseUrl. */
  readonly urlAsGiven?: string | undefined;
  readonly basePath: string;
  readonly username: string;
  readonly password: string;
  /** The client's own signal (ConfluentClientOptions.signal): aborting it cancels every request. */
  readonly cancel?: AbortSignal | undefined;
}

/** The session cookie Confluent sets (httpapi.py 3.15.6 line 408). */
const SESSION_COOKIE = /confluentsessionid=([^;,\s]+)/;

/** What an error status means, by Confluent's status (real-confluent.md items 3-5). */
function codeFor(status: number): XcatErrorCode {
  if (status === 401) return "XCAT_AUTH";
  if (status === 404) return "XCAT_NOT_FOUND";
  return "XCAT_HTTP";
}

export class Requester {
  readonly #parts: RequesterParts;
  #session: string | undefined;
  readonly #basic: string;

  constructor(parts: RequesterParts) {
    this.#parts = parts;
    this.#basic = `Basic ${Buffer.from(`${parts.username}:${parts.password}`).toString("base64")}`;
    parts.redactor.add(parts.password);
    parts.redactor.add(this.#basic.slice("Basic ".length));
  }

  /** Sends the request (with retries) and returns the parsed JSON body. */
  async send(request: ConfluentRequest): Promise<unknown> {
    const kind = request.kind ?? defaultKind(request.method);
    const { cancel } = this.#parts;
    const where = {
      method: request.method,
      display: this.#display(request.path),
      url: this.#parts.redactor.url(`${this.#parts.baseUrl}${request.path}`),
    };
    if (cancel?.aborted) throw cancelledError(cancel, where, "not sent");
    const signal =
      request.signal && cancel ? AbortSignal.any([request.signal, cancel]) : (request.signal ?? cancel);
    const sending = { ...request, signal };
    const state = { sent: false };
    try {
      return await runWithRetry(kind, this.#parts.retry, () => this.#attempt(sending, state), {
        signal,
        onRetry: ({ error, attempt, delayMs }) =>
          this.#parts.logger.info?.(
            `${request.method} ${where.display}: attempt ${attempt} failed (${error.message}); ` +
              `retrying in ${delayMs} ms`,
          ),
      });
    } catch (error) {
      // Cut off in flight or between attempts: a write already sent may have been carried out.
      if (cancel?.aborted && !isCancelled(error)) {
        const outcome = kind === "read" ? "changes nothing" : state.sent ? "maybe applied" : "not sent";
        throw cancelledError(cancel, where, outcome);
      }
      throw error;
    }
  }

  /** Ends the session on the server (`/sessions/current/logout`); errors are ignored. */
  async logout(): Promise<void> {
    if (this.#session === undefined) return;
    try {
      await this.#exchange({ method: "GET", path: "/sessions/current/logout" }, false);
    } catch {
      // The session expires on its own after 90 s idle.
    }
    this.#session = undefined;
  }

  /** One attempt; a 401 on a session that may have expired is answered by one Basic attempt. */
  async #attempt(request: ConfluentRequest, state: { sent: boolean }): Promise<unknown> {
    const withSession = this.#session !== undefined;
    const response = await this.#exchange(request, withSession, state);
    if (response.status === 401 && withSession) {
      this.#session = undefined;
      this.#parts.logger.info?.("Confluent session expired; signing in again");
      return this.#answer(request, await this.#exchange(request, false, state));
    }
    return this.#answer(request, response);
  }

  async #exchange(
    request: ConfluentRequest,
    withSession: boolean,
    state: { sent: boolean } = { sent: false },
  ): Promise<RawResponse> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (withSession && this.#session !== undefined) headers.ConfluentSession = this.#session;
    else headers.Authorization = this.#basic;
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const display = this.#display(request.path);
    const context = {
      method: request.method,
      url: this.#parts.redactor.url(`${this.#parts.baseUrl}${request.path}`),
      display,
    };
    const started = Date.now();
    const { cancel } = this.#parts;
    const response = await this.#parts.limiter.run(() => {
      // Cancelled while waiting for a slot: nothing goes out.
      if (cancel?.aborted) throw cancelledError(cancel, context, "not sent");
      state.sent = true;
      return this.#parts.transport.send(
        {
          method: request.method,
          path: `${this.#parts.basePath}${request.path}`,
          headers,
          body,
          signal: request.signal,
        },
        context,
      );
    });
    this.#parts.logger.debug?.(
      `${request.method} ${display} → ${response.status} (${Date.now() - started} ms)`,
    );
    const cookie = [response.headers["set-cookie"] ?? []].flat().join(";");
    const session = SESSION_COOKIE.exec(cookie)?.[1];
    if (session !== undefined) {
      this.#parts.redactor.add(session);
      this.#session = session;
    }
    return response;
  }

  #answer(request: ConfluentRequest, response: RawResponse): unknown {
    const display = this.#display(request.path);
    if (response.status >= 200 && response.status < 300) {
      try {
        return response.text.trim() === "" ? {} : JSON.parse(response.text);
      } catch {
        throw createXcatError(
          "XCAT_RESPONSE_SHAPE",
          `${request.method} ${display}: Confluent answered ${response.status} with a body that is not JSON: ` +
            this.#parts.redactor.text(response.text.slice(0, 200)),
          { method: request.method, status: response.status },
        );
      }
    }
    throw this.#failure(request, response);
  }

  /**
   * Confluent's handled errors are JSON `{"error": "<Category> - <detail>"}`; unhandled ones a
   * text body `500 - <python message>`; 401 is `authentication required` (items 3-5).
   */
  #failure(request: ConfluentRequest, response: RawResponse): XcatError {
    const otherServer = xcatwsAnsweredConfluent(
      response.status,
      this.#parts.redactor.text(response.text),
      this.#parts.urlAsGiven ?? this.#parts.baseUrl,
    );
    if (otherServer !== undefined) {
      return createXcatError(
        "XCAT_USAGE",
        `${request.method} ${this.#display(request.path)}: ${otherServer}`,
        {
          method: request.method,
          url: this.#parts.redactor.url(`${this.#parts.baseUrl}${request.path}`),
          status: response.status,
        },
      );
    }
    let detail = response.text.trim();
    try {
      const parsed = ErrorBody.safeParse(JSON.parse(detail));
      if (parsed.success) detail = parsed.data.error;
    } catch {
      // Plain text: kept as it is.
    }
    detail = this.#parts.redactor.text(detail.slice(0, 500));
    const display = this.#display(request.path);
    const explanation =
      response.status === 401
        ? `Confluent refused the user '${this.#parts.username}' and its password (401 ${detail || "authentication required"})`
        : `Confluent answered ${response.status}${detail ? `: ${detail}` : ""}`;
    return createXcatError(codeFor(response.status), `${request.method} ${display}: ${explanation}`, {
      method: request.method,
      url: this.#parts.redactor.url(`${this.#parts.baseUrl}${request.path}`),
      status: response.status,
      messages: detail ? [detail] : [],
      retryAfterMs: parseRetryAfter(response.headers["retry-after"]),
    });
  }

  #display(path: string): string {
    return this.#parts.redactor.url(`${this.#parts.basePath}${path}`);
  }
}

function defaultKind(method: ConfluentRequest["method"]): RequestKind {
  switch (method) {
    case "GET":
      return "read";
    case "PUT":
      return "write";
    case "DELETE":
      return "delete";
    case "POST":
      // Creating an object that exists merges into it (real-confluent.md item 2): repeatable.
      return "write";
  }
}
