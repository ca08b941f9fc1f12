/**
 * The transport in front of the pipeline, playing Apache's part: the /xcatws and /xcatwsv2
 * prefixes, URL decoding (a raw encoded slash is refused with 404, as Apache's
 * AllowEncodedSlashes Off does), dot-segment normalisation, the request body size limit, and the
 * injected faults and latency.
 */

import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { XCAT_CONTENT_TYPE } from "../../contract/envelope";
import { connectionFailure, SERVICE_UNAVAILABLE, SSL_TIMEOUT } from "../../contract/messages";
import type { CostModel } from "../cost/cost-model";
import type { Fault, FaultPlan } from "../faults";
import type { StatsCounter } from "../stats";
import type { XcatStore } from "../store/store";
import { apachePage } from "./errors";
import { type PipelineResponse, runPipeline } from "./pipeline";
import { renderJson } from "./render";
import type { JsonDecoder } from "./request-params";
import { matchRoute } from "./router";

/**
 * Largest request body accepted, 1 MiB. Apache's LimitRequestBody default is far larger; a
 * bound keeps a test emulator from buffering without end, and 1 MiB holds a table PUT for
 * thousands of nodes. Larger bodies get Apache's 413 page.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

const PREFIXES = ["/xcatwsv2", "/xcatws"];

interface ParsedUrl {
  readonly path: string;
  readonly query: URLSearchParams;
}

/** The path below the prefix, decoded and normalised; undefined when Apache would answer 404. */
export function parseUrl(rawUrl: string): ParsedUrl | undefined {
  const q = rawUrl.indexOf("?");
  const rawPath = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const query = new URLSearchParams(q < 0 ? "" : rawUrl.slice(q + 1));
  if (/%2f/i.test(rawPath)) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return undefined;
  }
  const segments: string[] = [];
  const parts = decoded.split("/");
  for (const [i, part] of parts.entries()) {
    if (part === ".") continue;
    if (part === "..") {
      if (segments.length <= 1) return undefined;
      segments.pop();
      continue;
    }
    if (part === "" && i !== 0 && i !== parts.length - 1) {
      segments.push(part);
      continue;
    }
    segments.push(part);
  }
  const path = segments.join("/");
  for (const prefix of PREFIXES) {
    if (path === prefix || path.startsWith(`${prefix}/`)) return { path: path.slice(prefix.length), query };
  }
  return undefined;
}

function faultResponse(kind: 503 | 408, when: "before" | "after"): string {
  const message =
    kind === 408
      ? SSL_TIMEOUT
      : when === "before"
        ? connectionFailure("Connection refused")
        : SERVICE_UNAVAILABLE;
  return renderJson({ error: message, errorcode: "2" }, false);
}

function routeKey(method: string, path: string): string {
  const trimmed = path.endsWith("/") ? path.slice(0, -1) : path;
  if (trimmed === "") return `${method} /`;
  const match = matchRoute(method, trimmed);
  return match.kind === "none" ? `${method} (unsupported)` : `${method} ${match.route.spec.path}`;
}

export interface ListenerDeps {
  readonly store: XcatStore;
  readonly faults: FaultPlan;
  readonly stats: StatsCounter;
  /** Makes requests cost what a real management node takes (off when absent). */
  readonly cost?: CostModel | undefined;
  /** The Perl JSON module whose messages bad bodies get (default JSON::XS). */
  readonly jsonDecoder?: JsonDecoder | undefined;
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  const bytes = Buffer.from(body, "utf8");
  res.writeHead(status, { "Content-Type": contentType, "Content-Length": bytes.length });
  res.end(bytes);
}

/** The request listener for node:http / node:https servers. */
export function createListener(deps: ListenerDeps) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    void handle(deps, req, res).catch((error: unknown) => {
      process.stderr.write(
        `xcat-emulator: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      if (!res.headersSent) send(res, 500, "text/html; charset=iso-8859-1", apachePage(500));
      else res.destroy();
    });
  };
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > MAX_BODY_BYTES) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

async function handle(deps: ListenerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? "GET";
  const url = parseUrl(req.url ?? "/");
  const body = await readBody(req);
  if (!url) {
    deps.stats.count(`${method} (unsupported)`);
    send(res, 404, "text/html; charset=iso-8859-1", apachePage(404));
    return;
  }
  if (body === undefined) {
    deps.stats.count(routeKey(method, url.path));
    res.setHeader("Connection", "close");
    send(res, 413, "text/html; charset=iso-8859-1", apachePage(413));
    req.destroy();
    return;
  }
  const delay = deps.faults.delay();
  if (delay > 0) await sleep(delay);
  // close() destroys every socket and then closes the store: a request still in its delay must
  // not reach the closed store (it would fail with "statement has been finalized").
  if (res.destroyed || req.socket.destroyed) return;
  const fault: Fault | undefined = deps.faults.next();
  if (fault?.when === "before") {
    deps.stats.count(routeKey(method, url.path));
    deps.stats.fault();
    if (fault.kind === "drop") res.socket?.destroy();
    else send(res, fault.kind, XCAT_CONTENT_TYPE, faultResponse(fault.kind, "before"));
    return;
  }
  const tokenHeader = req.headers["x-auth-token"];
  const response: PipelineResponse = runPipeline(deps.store, {
    method,
    path: url.path,
    query: url.query,
    contentType: req.headers["content-type"] ?? "",
    token: Array.isArray(tokenHeader) ? tokenHeader[0] : tokenHeader,
    body,
    ...(deps.jsonDecoder ? { jsonDecoder: deps.jsonDecoder } : {}),
  });
  deps.stats.count(response.routeKey);
  if (deps.cost) await deps.cost.charge(response.work);
  if (res.destroyed || req.socket.destroyed) return;
  if (fault) {
    deps.stats.fault();
    if (fault.kind === "drop") res.socket?.destroy();
    else send(res, fault.kind, XCAT_CONTENT_TYPE, faultResponse(fault.kind, "after"));
    return;
  }
  send(res, response.status, response.contentType, response.body);
}
