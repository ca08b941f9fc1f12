/**
 * A MockAgent-backed stand-in for xcatws, for the wire-level cases the emulator cannot produce
 * (bodies of the wrong shape, Retry-After, exact error bodies). Unmatched requests cannot reach
 * the network: every request goes to `handler`, and net connect is disabled.
 */
import { MockAgent } from "undici";
import { XcatClient, type XcatClientOptions } from "../../../src/client";

export const ORIGIN = "http://xcat.mock.test";

export interface MockRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

export interface MockReply {
  readonly status: number;
  /** A string is sent as is; anything else as JSON. Omitted: empty body. */
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

export type MockHandler = (request: MockRequest, index: number) => MockReply | Promise<MockReply>;

/** Error as undici raises it when the server closes the connection mid-request. */
export function socketClosed(): Error {
  return Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
}

export function mockXcat(handler: MockHandler) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const calls: MockRequest[] = [];
  agent
    .get(ORIGIN)
    .intercept({ path: () => true, method: () => true })
    .reply(async (opts) => {
      const headers = Object.fromEntries(
        Object.entries((opts.headers ?? {}) as Record<string, string>).map(([k, v]) => [
          k.toLowerCase(),
          String(v),
        ]),
      );
      const text = typeof opts.body === "string" ? opts.body : undefined;
      const request: MockRequest = {
        method: opts.method,
        path: opts.path,
        headers,
        body: text === undefined || text === "" ? undefined : JSON.parse(text),
      };
      calls.push(request);
      const reply = await handler(request, calls.length - 1);
      const data =
        reply.body === undefined
          ? ""
          : typeof reply.body === "string"
            ? reply.body
            : JSON.stringify(reply.body);
      return {
        statusCode: reply.status,
        data,
        responseOptions: {
          headers: { "content-type": "application/json; charset=ISO-8859-1", ...reply.headers },
        },
      };
    })
    .persist();

  const client = (options: Partial<XcatClientOptions> = {}) =>
    new XcatClient({
      url: ORIGIN,
      token: "fixed-token-0001",
      dispatcher: agent,
      retry: { minDelayMs: 1, maxDelayMs: 20 },
      logger: {},
      ...options,
    });

  return { agent, calls, client };
}

/** xCAT's error body. */
export const xcatError = (
  status: number,
  error: string | string[],
  errorcode: string | number = Array.isArray(error) ? "1" : "2",
): MockReply => ({
  status,
  body: { error, errorcode },
});
