/**
 * Runs one logical call: route id → URL, token, concurrency slot, HTTP exchange, retries, and the
 * translation of xCAT's answer into a body or an XcatError. Resource namespaces only say which
 * route, with which parameters and body, and what shape they expect back.
 */
import type { z } from "zod";
import { routeById } from "../contract/routes";
import type { TokenSource } from "./auth";
import { type CutOff, cancelledError } from "./cancelled";
import { createXcatError, isAlreadyExists, isCancelled, isNotFound, isXcatError } from "./errors";
import type { Limiter } from "./limiter";
import {
  classifyFailure,
  isAuthenticationFailure,
  isEmptyListAnswer,
  isNoRowsMatched,
  parseErrorBody,
  splitDebugOutput,
} from "./quirks";
import type { Redactor } from "./redact";
import { RequestLatency } from "./request-latency";
import {
  mustCheckBeforeRetry,
  parseRetryAfter,
  type RequestKind,
  type ResolvedRetryOptions,
  runWithRetry,
  StopRetrying,
} from "./retry";
import type { RawResponse, Transport } from "./transport";
import type { CallOptions, XcatLogger } from "./types";
import { confluentAnsweredXcat } from "./wrong-backend";

/** What a create's read-back found. */
export type CreateCheck = "present" | "absent" | "different";

/** One call, as a resource namespace describes it. */
export interface CallSpec {
  /** Route id from src/contract/routes.ts. */
  readonly route: string;
  /** Encoded path segments by template name (see names.ts). */
  readonly params?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /** Defaults: GET read, PUT write, DELETE delete, POST action. */
  readonly kind?: RequestKind;
  readonly options?: CallOptions | undefined;
  /** Send no token (POST /tokens). */
  readonly anonymous?: boolean;
  /** A 403 "Could not get objects of type" is an empty list (body `[]`). */
  readonly emptyListOk?: boolean;
  /** A 403 "No table rows matched" is an empty result (body undefined). */
  readonly noRowsOk?: boolean;
  /** For creates: reads the object after an ambiguous failure. */
  readonly checkCreate?: () => Promise<CreateCheck>;
  /** One attempt only (read-backs inside another call's retry loop). */
  readonly singleAttempt?: boolean;
}

/** A successful answer; `body` is undefined when xcatws sent nothing. */
export interface Answer {
  readonly status: number;
  readonly body: unknown;
  /** Method and redacted path, for messages. */
  readonly what: string;
  readonly url: string;
}

export interface EngineParts {
  readonly origin: string;
  readonly basePath: string;
  /** The URL as the user gave it, for messages that name the server (the wrong-backend sentence). */
  readonly urlAsGiven?: string | undefined;
  readonly transport: Transport;
  readonly limiter: Limiter;
  readonly tokens: TokenSource | undefined;
  readonly redactor: Redactor;
  readonly retry: ResolvedRetryOptions;
  readonly logger: XcatLogger;
  /** The client's own signal (XcatClientOptions.signal): aborting it cancels every call. */
  readonly cancel?: AbortSignal | undefined;
}

/** One HTTP exchange as the engine sends it; `display` is the redacted URL for messages. */
interface WireRequest {
  method: "GET" | "PUT" | "POST" | "DELETE";
  path: string;
  display: string;
  url: string;
  body: string | undefined;
}

interface Counters {
  calls: number;
  requests: number;
  retries: number;
  tokenRenewals: number;
  createChecks: number;
  failures: number;
}

export class Engine {
  readonly #parts: EngineParts;
  readonly counters: Counters = {
    calls: 0,
    requests: 0,
    retries: 0,
    tokenRenewals: 0,
    createChecks: 0,
    failures: 0,
  };

  /** What an answered request takes on this server, as measured so far (see request-latency.ts). */
  readonly latency = new RequestLatency();

  constructor(parts: EngineParts) {
    this.#parts = parts;
  }

  /** Runs a call and returns the answer; throws XcatError. */
  async call(spec: CallSpec): Promise<Answer> {
    const route = routeById(spec.route);
    const path = this.#path(route.path, spec.params ?? {}, spec.options);
    const method = route.method;
    const display = this.#parts.redactor.url(path);
    const url = this.#parts.redactor.url(`${this.#parts.origin}${path}`);
    const what = `${method} ${display}`;
    const kind = spec.kind ?? defaultKind(method);
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    // A read or a token request changes nothing the caller manages, whatever became of it.
    const changes = kind !== "read" && kind !== "token";
    const state = { renewed: false, outcomeUnknown: false, sent: false, changes };
    const retry = spec.singleAttempt ? { ...this.#parts.retry, attempts: 1 } : this.#parts.retry;
    this.counters.calls += 1;
    const { cancel } = this.#parts;
    if (cancel?.aborted) throw cancelledError(cancel, { method, display, url }, "not sent");
    const signal =
      spec.options?.signal && cancel
        ? AbortSignal.any([spec.options.signal, cancel])
        : (spec.options?.signal ?? cancel);

    const attempt = async (attemptNumber: number): Promise<Answer> => {
      if (attemptNumber > 1) this.counters.retries += 1;
      if (spec.checkCreate && state.outcomeUnknown) {
        const found = await this.#checkCreate(spec.checkCreate, method, display, url);
        if (found === "present") return { status: 201, body: undefined, what, url };
        state.outcomeUnknown = false;
      }
      try {
        return await this.#exchange(spec, { method, path, display, url, body }, state, signal);
      } catch (error) {
        if (!isXcatError(error)) throw error;
        // A retried DELETE that finds nothing: an earlier attempt did the work.
        if (kind === "delete" && attemptNumber > 1 && isNotFound(error))
          return { status: 200, body: undefined, what, url };
        // A re-sent create that finds the object: decide by what is stored, not by the 403.
        if (spec.checkCreate && attemptNumber > 1 && isAlreadyExists(error)) {
          const found = await this.#checkCreate(spec.checkCreate, method, display, url);
          if (found === "present") return { status: 201, body: undefined, what, url };
          throw new StopRetrying(error);
        }
        // The POST may have been applied: the next attempt reads before it posts again.
        if (spec.checkCreate && mustCheckBeforeRetry("create", error)) state.outcomeUnknown = true;
        throw error;
      }
    };

    try {
      return await runWithRetry(kind, retry, attempt, {
        signal,
        onRetry: ({ error, attempt: n, delayMs }) =>
          this.#parts.logger.info?.(
            `retrying ${method} ${display} in ${delayMs} ms (attempt ${n + 1} of ${retry.attempts}): ${this.#parts.redactor.text(error.message)}`,
          ),
      });
    } catch (error) {
      this.counters.failures += 1;
      // Cut off between attempts (p-retry's wait ends with the signal's reason): a write already
      // sent by an earlier attempt may have been carried out.
      if (cancel?.aborted && !isXcatError(error))
        throw cancelledError(cancel, { method, display, url }, cutOff(state));
      throw error;
    }
  }

  async #checkCreate(
    check: () => Promise<CreateCheck>,
    method: string,
    display: string,
    url: string,
  ): Promise<CreateCheck> {
    this.counters.createChecks += 1;
    const found = await check();
    this.#parts.logger.info?.(
      `${method} ${display}: outcome of an earlier attempt was unknown; read back: ${found}`,
    );
    if (found === "different") {
      throw new StopRetrying(
        createXcatError(
          "XCAT_ALREADY_EXISTS",
          `${method} ${display} failed: the object exists with other attributes than the ones sent`,
          { method, url },
        ),
      );
    }
    return found;
  }

  async #exchange(
    spec: CallSpec,
    request: WireRequest,
    state: { renewed: boolean; sent: boolean; changes: boolean },
    signal: AbortSignal | undefined,
  ): Promise<Answer> {
    const tokens = spec.anonymous ? undefined : this.#parts.tokens;
    let token: string | undefined;
    if (tokens) {
      try {
        token = await tokens.current();
      } catch (error) {
        // The token request has retried on its own; do not multiply that by this call's retries.
        if (isXcatError(error)) throw new StopRetrying(error);
        throw error;
      }
    }
    const sending = { signal, state };
    let response = await this.#send(request, token, sending);
    if (tokens && token !== undefined && !state.renewed && response.status >= 400) {
      const { messages } = parseErrorBody(response.text);
      if (isAuthenticationFailure(response.status, messages) && tokens.canRenew) {
        state.renewed = true;
        this.counters.tokenRenewals += 1;
        this.#parts.logger.info?.(`${request.method} ${request.display}: token refused; obtaining a new one`);
        let fresh: string | undefined;
        try {
          fresh = await tokens.replace(token);
        } catch (error) {
          if (isXcatError(error)) throw new StopRetrying(error);
          throw error;
        }
        if (fresh !== undefined) response = await this.#send(request, fresh, sending);
      }
    }
    return this.#interpret(response, spec, request);
  }

  async #send(
    request: WireRequest,
    token: string | undefined,
    sending: { signal: AbortSignal | undefined; state: { sent: boolean; changes: boolean } },
  ): Promise<RawResponse> {
    const { signal } = sending;
    const { cancel } = this.#parts;
    const headers: Record<string, string> = { accept: "application/json" };
    // xcatws only reads a body sent as JSON; a form content type makes it drop the body silently.
    if (request.body !== undefined) headers["content-type"] = "application/json";
    if (token !== undefined) headers["x-auth-token"] = token;
    return this.#parts.limiter.run(async () => {
      // Cancelled while waiting for a slot: nothing goes out.
      if (cancel?.aborted) throw cancelledError(cancel, request, "not sent");
      sending.state.sent = true;
      this.counters.requests += 1;
      const started = performance.now();
      try {
        const response = await this.#parts.transport.send(
          { method: request.method, path: request.path, headers, body: request.body, signal },
          { method: request.method, url: request.url, display: request.display },
        );
        const ms = performance.now() - started;
        this.latency.record(ms);
        this.#parts.logger.debug?.(
          `${request.method} ${request.display} -> ${response.status} (${Math.round(ms)} ms)`,
        );
        return response;
      } catch (error) {
        // undici aborted the exchange: no answer was read, whatever the server did with it.
        if (cancel?.aborted && !isCancelled(error))
          throw cancelledError(cancel, request, cutOff(sending.state));
        if (isXcatError(error)) {
          this.#parts.logger.debug?.(
            `${request.method} ${request.display} -> ${this.#parts.redactor.text(error.message)}`,
          );
        }
        throw error;
      }
    });
  }

  #interpret(
    response: RawResponse,
    spec: CallSpec,
    request: { method: string; display: string; url: string },
  ): Answer {
    const { status } = response;
    const what = `${request.method} ${request.display}`;
    const url = request.url;
    const redact = (text: string) => this.#parts.redactor.text(text);
    if (status >= 200 && status < 300) {
      const { debug, json } = splitDebugOutput(response.text);
      for (const line of debug) this.#parts.logger.debug?.(`xcatws ${redact(line)}`);
      if (json.length === 0) return { status, body: undefined, what, url };
      try {
        return { status, body: JSON.parse(json), what, url };
      } catch (error) {
        throw createXcatError(
          "XCAT_RESPONSE_SHAPE",
          `${request.method} ${request.display} failed: ${status} with a body that is not JSON: ${redact(json.slice(0, 120))}`,
          { method: request.method, url: request.url, status, cause: error },
        );
      }
    }
    // Redact the whole body before parsing: parsing may cut a long message (an HTML error page)
    // in the middle of a secret, and a cut secret no longer matches the redactor's patterns.
    const parsed = parseErrorBody(redact(response.text));
    const messages = parsed.messages.map(redact);
    if (spec.emptyListOk && isEmptyListAnswer(status, messages)) return { status, body: [], what, url };
    if (spec.noRowsOk && isNoRowsMatched(status, messages)) return { status, body: undefined, what, url };
    const otherServer = confluentAnsweredXcat(
      status,
      response.headers,
      this.#parts.urlAsGiven ?? `${this.#parts.origin}${this.#parts.basePath}`,
    );
    if (otherServer !== undefined) {
      throw createXcatError("XCAT_USAGE", `${request.method} ${request.display} failed: ${otherServer}`, {
        method: request.method,
        url: request.url,
        status,
        messages,
      });
    }
    const code = classifyFailure(status, messages);
    const first = messages[0];
    const hint =
      code === "XCAT_AUTH"
        ? " (check the username and password, or the token)"
        : notXcatwsHint(status, parsed.errorcode, url, this.#parts.origin);
    const message =
      `${request.method} ${request.display} failed: ${status}` +
      (parsed.errorcode === undefined ? "" : ` errorcode=${parsed.errorcode}`) +
      (first === undefined ? "" : ` "${first}"`) +
      hint;
    throw createXcatError(code, message, {
      method: request.method,
      url: request.url,
      status,
      errorcode: parsed.errorcode,
      messages,
      retryAfterMs: parseRetryAfter(response.headers["retry-after"]),
    });
  }

  #path(
    template: string,
    params: Readonly<Record<string, string>>,
    options: CallOptions | undefined,
  ): string {
    const filled = template.replace(/\{([a-z_]+)\}/g, (_m, name: string) => {
      const value = params[name];
      if (value === undefined) throw new Error(`internal: route parameter '${name}' missing`);
      return value;
    });
    const query: string[] = [];
    if (options?.pretty) query.push("pretty=1");
    if (options?.debug) query.push("debug=1");
    if (options?.xcoll) query.push("xcoll=1");
    return `${this.#parts.basePath}${filled}${query.length > 0 ? `?${query.join("&")}` : ""}`;
  }
}

/**
 * xcatws answers every 404 of its own with its JSON error envelope (`{"error":"Unsupported
 * resource.","errorcode":"2"}`, xcatws.cgi:1569, 1574), so a 404 without an errorcode is the web
 * server's own page: the URL's path does not lead to xcatws at all (e.g. `/xcat` for `/xcatws`).
 */
function notXcatwsHint(status: number, errorcode: string | undefined, url: string, origin: string): string {
  if (status !== 404 || errorcode !== undefined) return "";
  return (
    `. ${url} is not xCAT's REST service (the answer is the web server's own 404, not xcatws's): ` +
    `the service lives at /xcatws on the management node, so the URL should be ${origin}/xcatws`
  );
}

function defaultKind(method: "GET" | "PUT" | "POST" | "DELETE"): RequestKind {
  switch (method) {
    case "GET":
      return "read";
    case "PUT":
      return "write";
    case "DELETE":
      return "delete";
    case "POST":
      return "action";
  }
}

/**
 * Parses an answer's body with a zod schema; a mismatch is an XcatResponseShapeError naming the
 * call and the first problem, not a crash somewhere later.
 *
 * @example
 * ```ts
 * const names = parseBody(answer, StringList);
 * ```
 */
export function parseBody<S extends z.ZodType>(
  answer: Answer,
  schema: S,
  body: unknown = answer.body,
): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.map(String).join(".")}` : "";
  const [method] = answer.what.split(" ");
  throw createXcatError(
    "XCAT_RESPONSE_SHAPE",
    `${answer.what} failed: ${answer.status} with an answer of the wrong shape${where}: ${issue?.message ?? "invalid"}`,
    { method, url: answer.url, status: answer.status, cause: result.error },
  );
}

/** What a call cut off by the client's signal may have done, by what it had sent. */
function cutOff(state: { sent: boolean; changes: boolean }): CutOff {
  if (!state.changes) return "changes nothing";
  return state.sent ? "maybe applied" : "not sent";
}
