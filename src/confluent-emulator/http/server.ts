/**
 * One HTTP request through the emulator, in the order httpapi.py:657 resourcehandler_backend
 * takes it: strip /confluent-api, pick JSON or HTML, read the body (a malformed one is a 500
 * before authentication), map the method, authenticate (Basic, session header or cookie, CSRF
 * token), then run the handler and render its messages.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { confluentMessages } from "../../contract/confluent/messages";
import { CONFLUENT_API_ROOT } from "../../contract/confluent/paths";
import type { ConfluentConfig } from "../store/config-store";
import { ConfluentApiError } from "../store/errors";
import type { HardwareSimulation } from "../store/hardware";
import { PythonError } from "../store/python-format";
import { handlePath, type Operation } from "./handlers";
import { assembleJson, pythonJson } from "./render";
import type { SessionTable } from "./sessions";

export interface ListenerContext {
  readonly config: ConfluentConfig;
  readonly hardware: HardwareSimulation;
  readonly sessions: SessionTable;
  readonly user: string;
  readonly password: string;
  readonly version: string;
}

const OPERATIONS: Readonly<Record<string, Operation>> = {
  GET: "retrieve",
  PUT: "update",
  POST: "create",
  DELETE: "delete",
};

/** The security headers Confluent sets on every answer it renders (httpapi.py:661). */
function baseHeaders(mimetype: string): Array<[string, string]> {
  return [
    ["Content-Type", mimetype],
    ["Cache-Control", "no-store"],
    ["Pragma", "no-cache"],
    ["X-Content-Type-Options", "nosniff"],
    ["Content-Security-Policy", "default-src 'self'"],
    ["X-XySS-Protection", "1; mode=block"],
    ["X-Frame-Options", "deny"],
    ["Strict-Transport-Security", "max-age=86400"],
    ["X-Permitted-Cross-Domain-Policies", "none"],
  ];
}

function send(
  res: ServerResponse,
  status: number,
  reason: string,
  headers: Array<[string, string]>,
  body: string,
) {
  res.statusCode = status;
  res.statusMessage = reason;
  for (const [k, v] of headers) res.appendHeader(k, v);
  res.end(body);
}

/** Python's json.loads error text for the common malformed bodies. */
function jsonError(text: string): string {
  const at = (pos: number) => {
    const before = text.slice(0, pos);
    const line = before.split("\n").length;
    const col = pos - before.lastIndexOf("\n");
    return `line ${line} column ${col} (char ${pos})`;
  };
  const first = text.search(/\S/);
  if (first < 0) return `Expecting value: ${at(text.length)}`;
  if (text[first] === "{") {
    const next = text.slice(first + 1).search(/\S/);
    const pos = next < 0 ? text.length : first + 1 + next;
    if (text[pos] !== '"' && text[pos] !== "}")
      return `Expecting property name enclosed in double quotes: ${at(pos)}`;
  }
  if (!/^[[{"\-0-9tfn]/.test(text.slice(first))) return `Expecting value: ${at(first)}`;
  return `Expecting value: ${at(first)}`;
}

function pyTypeName(value: unknown): string {
  if (value === null) return "NoneType";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "boolean") return "bool";
  return "str";
}

/** httpapi.py:187 _get_query_dict: query string pairs plus a JSON or form body. */
function queryDict(url: URL, body: string | undefined, contentType: string): Record<string, unknown> {
  const q: Record<string, unknown> = {};
  for (const pair of url.search.slice(1).split("&")) {
    if (!pair.includes("=")) continue;
    const [k, v] = pair.split("=");
    q[k ?? ""] = v ?? "";
  }
  if (body === undefined) return q;
  if (contentType.includes("application/x-www-form-urlencoded")) {
    for (const [k, v] of new URLSearchParams(body)) q[k] = v;
  } else if (contentType.includes("application/json")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new PythonError(jsonError(body));
    }
    if (Array.isArray(parsed)) {
      if (parsed.length > 0) throw new PythonError("list indices must be integers or slices, not str");
    } else if (typeof parsed === "string") {
      if (parsed.length > 0) throw new PythonError("string indices must be integers, not 'str'");
    } else if (parsed === null || typeof parsed !== "object") {
      throw new PythonError(`'${pyTypeName(parsed)}' object is not iterable`);
    } else Object.assign(q, parsed);
  }
  return q;
}

/** Python's base64.b64decode (non-strict) of a Basic credential, with its error texts. */
function decodeBasic(header: string): [string, string] {
  const text = header.replace("Basic ", "").replace(/[^A-Za-z0-9+/=]/g, "");
  const data = text.replace(/=+$/, "");
  if (data.length % 4 === 1) {
    throw new PythonError(
      `Invalid base64-encoded string: number of data characters (${data.length}) cannot be 1 more than a multiple of 4`,
    );
  }
  if (text.length % 4 !== 0) throw new PythonError("Incorrect padding");
  const decoded = Buffer.from(text, "base64").toString("latin1");
  const colon = decoded.indexOf(":");
  if (colon < 0) throw new PythonError("not enough values to unpack (expected 2, got 1)");
  return [decoded.slice(0, colon), decoded.slice(colon + 1)];
}

type AuthOutcome =
  | { kind: "ok"; user: string; sessionId?: string; authtoken?: string; newCookie?: string }
  | { kind: "logout" }
  | { kind: "denied" };

function authorize(req: IncomingMessage, path: string, ctx: ListenerContext): AuthOutcome {
  const header = (name: string) => {
    const v = req.headers[name.toLowerCase()];
    return Array.isArray(v) ? v[0] : v;
  };
  let sessionId = header("ConfluentSession");
  if (sessionId === undefined) {
    const cookie = header("Cookie");
    const at = cookie?.indexOf("confluentsessionid=") ?? -1;
    if (cookie && at >= 0) sessionId = cookie.slice(at + 19, at + 51);
  }
  if (sessionId) {
    const session = ctx.sessions.touch(sessionId);
    const csrfOk = !session?.csrftoken || header("ConfluentAuthToken") === session.csrftoken;
    if (session && csrfOk) {
      if (path === "/sessions/current/logout") {
        ctx.sessions.close(session.id);
        return { kind: "logout" };
      }
      return {
        kind: "ok",
        user: session.user,
        sessionId: session.id,
        ...(session.csrftoken ? { authtoken: session.csrftoken } : {}),
      };
    }
  }
  const authorization = header("Authorization");
  if (authorization !== undefined) {
    if (path === "/sessions/current/logout")
      return header("Referer") ? { kind: "denied" } : { kind: "logout" };
    const [user, password] = decodeBasic(authorization);
    if (user !== ctx.user || password !== ctx.password) return { kind: "denied" };
    const session = ctx.sessions.open(user, header("ConfluentAuthToken") !== undefined);
    return {
      kind: "ok",
      user,
      sessionId: session.id,
      ...(session.csrftoken ? { authtoken: session.csrftoken } : {}),
      newCookie: `confluentsessionid=${session.id}; HttpOnly; Path=/; Secure`,
    };
  }
  return { kind: "denied" };
}

export function createConfluentListener(ctx: ListenerContext) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      try {
        respond(req, res, chunks.length > 0 ? Buffer.concat(chunks).toString("utf8") : undefined, ctx);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (!res.headersSent) send(res, 500, `- ${message}`, [], `500 - ${message}`);
      }
    });
  };
}

function respond(
  req: IncomingMessage,
  res: ServerResponse,
  body: string | undefined,
  ctx: ListenerContext,
): void {
  const url = new URL(req.url ?? "/", "http://confluent");
  let path = decodeURIComponent(url.pathname);
  if (path.startsWith(CONFLUENT_API_ROOT)) path = path.replace(CONFLUENT_API_ROOT, "");
  if (path === "") path = "/";
  const accept = String(req.headers.accept ?? "");
  const [mimetype, extension] = path.endsWith(".json")
    ? ["application/json; charset=utf-8", ".json"]
    : path.endsWith(".html")
      ? ["text/html", ".html"]
      : accept.includes("application/json")
        ? ["application/json; charset=utf-8", ""]
        : ["text/html", ""];
  const headers = baseHeaders(mimetype);
  const input = queryDict(url, body, String(req.headers["content-type"] ?? ""));
  const operation = OPERATIONS[req.method ?? ""];
  if (!operation) {
    send(res, 400, confluentMessages.badMethodReason, headers, "");
    return;
  }
  const auth = authorize(req, path, ctx);
  if (auth.kind === "logout") {
    send(
      res,
      200,
      confluentMessages.logoutReason,
      headers,
      `{"result": "${confluentMessages.logoutResult}"}`,
    );
    return;
  }
  if (auth.kind === "denied") {
    const suppress =
      req.headers.suppressauthheader !== undefined || req.headers.confluentauthtoken !== undefined;
    send(
      res,
      401,
      confluentMessages.authenticationReason,
      [
        ["Content-Type", "text/plain"],
        ...(suppress ? [] : ([["WWW-Authenticate", 'Basic realm="confluent"']] as Array<[string, string]>)),
      ],
      confluentMessages.authenticationRequired,
    );
    return;
  }
  if (auth.newCookie) headers.push(["Set-Cookie", auth.newCookie]);
  const urlPath = path.replace(".json", "").replace(".html", "");
  if (urlPath === "/sessions/current/info") {
    const info: Record<string, string> = { username: auth.user };
    if (auth.authtoken) info.authtoken = auth.authtoken;
    if (auth.sessionId) info.sessionid = auth.sessionId;
    send(res, 200, "OK", headers, pythonJson(info));
    return;
  }
  try {
    ctx.hardware.advance();
    const messages = handlePath(urlPath, operation, input, {
      config: ctx.config,
      hardware: ctx.hardware,
      version: ctx.version,
    });
    const page =
      mimetype === "text/html"
        ? confluentMessages.htmlExplorerDiscontinued
        : assembleJson(messages, urlPath, extension);
    send(res, 200, "OK", headers, page);
  } catch (error) {
    if (error instanceof ConfluentApiError) {
      send(
        res,
        error.status,
        error.detail ? `${error.category} - ${error.detail}` : error.category,
        headers,
        pythonJson({ error: `${error.category} - ${error.detail}` }),
      );
      return;
    }
    throw error;
  }
}
