/**
 * The view's HTTP server: the page, its script, and two JSON answers from the last tick
 * (view-source.ts). It listens on 127.0.0.1 unless told otherwise, and then answers only requests
 * whose Host header names the address it listens on (a page elsewhere cannot reach it through a
 * name that resolves to 127.0.0.1). Nothing it serves carries a secret: attributes that hold one
 * read `[secret]` (view-model.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { PAGE_HTML, PAGE_SCRIPT } from "./page";
import type { ViewSource } from "./view-source";

export interface RunningViewServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const HEADERS = { "cache-control": "no-store", "x-content-type-options": "nosniff" } as const;

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { ...HEADERS, "content-type": type });
  response.end(body);
}

function statusLine(source: ViewSource): string {
  const { model, readAt, tick, sections } = source.snapshot;
  const drawn = (sections ?? []).filter((section) => section.model !== undefined);
  if (sections !== undefined && sections.length > 1 && drawn.length > 0) {
    const nodes = drawn.reduce((sum, section) => sum + (section.model?.nodes.size ?? 0), 0);
    return `Stack ${drawn[0]?.model?.stack}, ${nodes} nodes on ${drawn.length} of ${sections.length} servers, read at ${readAt} (tick ${tick}).`;
  }
  if (model === undefined) return tick === 0 ? "Reading the cluster…" : "No drawing yet.";
  return `Stack ${model.stack}, ${model.nodes.size} nodes, read at ${readAt} (tick ${tick}).`;
}

function handle(source: ViewSource, request: IncomingMessage, response: ServerResponse, hosts: Set<string>) {
  if (hosts.size > 0 && !hosts.has(request.headers.host ?? "")) {
    send(response, 421, "text/plain", "This view answers only at the address it listens on.\n");
    return;
  }
  const url = new URL(request.url ?? "/", "http://view");
  if (request.method !== "GET") {
    send(response, 405, "text/plain", "The view is read-only.\n");
    return;
  }
  if (url.pathname === "/") return send(response, 200, "text/html; charset=utf-8", PAGE_HTML);
  if (url.pathname === "/view.js") return send(response, 200, "text/javascript; charset=utf-8", PAGE_SCRIPT);
  if (url.pathname === "/api/view") {
    const { svg, problem, tick } = source.snapshot;
    return send(
      response,
      200,
      "application/json",
      JSON.stringify({
        tick,
        status: statusLine(source),
        ...(svg ? { svg } : {}),
        ...(problem ? { problem } : {}),
      }),
    );
  }
  if (url.pathname === "/api/node") {
    const name = url.searchParams.get("name") ?? "";
    // `server`: the section's index (render-svg.ts data-server); absent, the first server's.
    const server = Number(url.searchParams.get("server") ?? "0");
    const model =
      source.snapshot.sections?.[server]?.model ?? (server === 0 ? source.snapshot.model : undefined);
    const node = model?.nodes.get(name);
    if (node === undefined) {
      return send(
        response,
        404,
        "application/json",
        JSON.stringify({ error: `No node named '${name}' at the last read.` }),
      );
    }
    return send(
      response,
      200,
      "application/json",
      JSON.stringify({ ...node, server: model?.managementNode, backend: model?.backend ?? "xcat" }),
    );
  }
  send(response, 404, "text/plain", "Not found.\n");
}

/** Serves `source` on `host:port` (port 0: a free one). */
export function serveView(source: ViewSource, host: string, port: number): Promise<RunningViewServer> {
  const hosts = new Set<string>();
  const server: Server = createServer((request, response) => handle(source, request, response, hosts));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const bound = (server.address() as AddressInfo).port;
      const shownHost = host.includes(":") ? `[${host}]` : host;
      // Loopback only: a page on another site cannot reach it by a name that resolves here. When
      // exposed on purpose (--expose-cluster-on), it answers whatever name the network gives it.
      if (host === "127.0.0.1") hosts.add(`${shownHost}:${bound}`).add(`localhost:${bound}`);
      resolve({
        url: `http://${shownHost}:${bound}/`,
        port: bound,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
