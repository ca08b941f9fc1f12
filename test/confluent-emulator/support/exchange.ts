/**
 * Sends one scenario step over HTTP (node:http, so that the reason phrase, which Confluent fills
 * with its error text, is visible) and reduces the answer to what is compared: status, reason,
 * the headers a client acts on, and the body. Used by the recorder against a real Confluent and
 * by the conformance test against the emulator, so both see exactly the same requests.
 */
import { request } from "node:http";
import type { AuthMode, ScenarioStep } from "./scenarios";

export interface RecordedResponse {
  readonly status: number;
  readonly reason: string;
  /** content-type, www-authenticate, and set-cookie with the session id replaced by <session>. */
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON when the body is JSON, else the text. */
  readonly body: unknown;
}

export interface Exchange {
  readonly what: string;
  readonly request: ScenarioStep;
  readonly response: RecordedResponse;
}

export interface RecordedScenario {
  readonly scenario: string;
  readonly recordedAgainst: string;
  readonly exchanges: readonly Exchange[];
}

/** Where and as whom the steps are sent; `session` carries the id of the last Basic login. */
export interface Target {
  /** e.g. http://127.0.0.1:4005/confluent-api */
  readonly baseUrl: string;
  readonly user: string;
  readonly password: string;
  session?: string;
}

function authHeaders(mode: AuthMode, target: Target): Record<string, string> {
  const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString("base64")}`;
  switch (mode) {
    case "basic":
      return { Authorization: basic(target.user, target.password) };
    case "none":
      return {};
    case "wrong-password":
      return { Authorization: basic(target.user, `${target.password}-wrong`) };
    case "unknown-user":
      return { Authorization: basic("cfe-nosuchuser", target.password) };
    case "session":
      return { ConfluentSession: target.session ?? "" };
    case "session-cookie":
      return { Cookie: `confluentsessionid=${target.session ?? ""}` };
    case "stale-session":
      return { ConfluentSession: "0123456789abcdef0123456789abcdef" };
  }
}

export function sendStep(target: Target, step: ScenarioStep): Promise<RecordedResponse> {
  const url = new URL(`${target.baseUrl}${step.path}`);
  const body =
    step.rawBody !== undefined
      ? step.rawBody
      : step.body !== undefined
        ? JSON.stringify(step.body)
        : undefined;
  const headers: Record<string, string> = {
    ...(step.acceptJson === false ? {} : { Accept: "application/json" }),
    ...authHeaders(step.auth ?? "basic", target),
    ...(body !== undefined
      ? {
          "Content-Type": step.contentType ?? "application/json",
          "Content-Length": String(Buffer.byteLength(body)),
        }
      : {}),
    ...step.headers,
  };
  return new Promise((resolve, reject) => {
    const req = request(url, { method: step.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const kept: Record<string, string> = {};
        const contentType = res.headers["content-type"];
        if (contentType) kept["content-type"] = contentType;
        const wwwAuth = res.headers["www-authenticate"];
        if (wwwAuth) kept["www-authenticate"] = wwwAuth;
        const cookie = res.headers["set-cookie"]?.[0];
        if (cookie) {
          const id = /confluentsessionid=([^;]*)/.exec(cookie)?.[1];
          if (id) target.session = id;
          kept["set-cookie"] = cookie.replace(/confluentsessionid=[^;]*/, "confluentsessionid=<session>");
        }
        let parsed: unknown = text;
        if (contentType?.includes("json")) {
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = text;
          }
        }
        resolve({
          status: res.statusCode ?? 0,
          reason: res.statusMessage ?? "",
          headers: kept,
          body: parsed,
        });
      });
    });
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}
