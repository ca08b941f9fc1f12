/**
 * The transport against a real local socket: concurrency bound, keep-alive, timeouts and
 * dropped connections.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { isNetworkError, isTimeoutError, isXcatError, XcatClient } from "../../src/client";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const servers: Server[] = [];
const clients: XcatClient[] = [];

async function serve(handler: Handler): Promise<{ url: string; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer(handler);
  server.on("connection", (socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sockets };
}

function client(url: string, options: Partial<ConstructorParameters<typeof XcatClient>[0]> = {}): XcatClient {
  const c = new XcatClient({
    url,
    token: "t-000001",
    logger: {},
    retry: { minDelayMs: 1, maxDelayMs: 10 },
    ...options,
  });
  clients.push(c);
  return c;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

describe("transport", () => {
  it("keeps at most maxConcurrency requests in flight, over reused connections", async () => {
    let active = 0;
    let peak = 0;
    const { url, sockets } = await serve((_req, res) => {
      active += 1;
      peak = Math.max(peak, active);
      setTimeout(() => {
        active -= 1;
        json(res, 200, ["n01"]);
      }, 20);
    });
    const c = client(url, { maxConcurrency: 3 });
    await Promise.all(Array.from({ length: 12 }, () => c.nodes.list()));
    expect(peak).toBe(3);
    expect(sockets.size).toBeLessThanOrEqual(3);
    expect(c.metrics()).toMatchObject({ requests: 12, inFlight: 0, queued: 0 });
  });

  it("times out a slow answer, retries a GET, and names the limit", async () => {
    let hits = 0;
    const { url } = await serve((_req, res) => {
      hits += 1;
      setTimeout(() => json(res, 200, []), 1_000);
    });
    const error = await client(url, {
      requestTimeoutMs: 100,
      retry: { attempts: 3, minDelayMs: 1, maxDelayMs: 5 },
    })
      .nodes.list()
      .catch((e: unknown) => e);
    expect(isTimeoutError(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /GET \/xcatws\/nodes failed: no complete response within 100 ms \(after 3 attempts\)/,
    );
    expect(hits).toBe(3);
  });

  it("retries a GET over a dropped connection", async () => {
    let hits = 0;
    const { url } = await serve((req, res) => {
      hits += 1;
      if (hits === 1) req.socket.destroy();
      else json(res, 200, ["n01"]);
    });
    const c = client(url);
    expect(await c.nodes.list()).toEqual(["n01"]);
    expect(c.metrics().retries).toBe(1);
  });

  it("says the service lives at /xcatws when the URL's path leads to the web server's own 404 page", async () => {
    // Apache's page for a path nothing serves (e.g. /xcat instead of /xcatws on a management node).
    let hits = 0;
    const { url } = await serve((req, res) => {
      hits += 1;
      res.writeHead(404, { "content-type": "text/html; charset=iso-8859-1" });
      res.end(
        '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>404 Not Found</title>\n' +
          `</head><body>\n<h1>Not Found</h1>\n<p>The requested URL ${req.url} was not found on this server.</p>\n</body></html>\n`,
      );
    });
    const c = client(`${url}/xcat`, { token: undefined, username: "root", password: "pw-404" });
    const error = await c.nodes.list().catch((e: unknown) => e);
    expect(isXcatError(error) && error.status).toBe(404);
    const message = (error as Error).message;
    expect(message).toContain(`${url}/xcat/tokens is not xCAT's REST service`);
    expect(message).toContain(`the URL should be ${url}/xcatws`);
    expect(message).not.toContain("pw-404");
    expect(hits).toBe(1);
  });

  it("keeps xcatws's own 404 as it is (no advice about the path)", async () => {
    const { url } = await serve((_req, res) =>
      json(res, 404, { error: "Unsupported resource.", errorcode: "2" }),
    );
    const error = await client(url)
      .nodes.list()
      .catch((e: unknown) => e);
    expect(isXcatError(error) && error.status).toBe(404);
    expect((error as Error).message).toBe(
      'GET /xcatws/nodes failed: 404 errorcode=2 "Unsupported resource."',
    );
  });

  it("reports a refused connection as a network error after retrying", async () => {
    const { url } = await serve(() => undefined);
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
    const error = await client(url, { retry: { attempts: 2, minDelayMs: 1 } })
      .nodes.list()
      .catch((e: unknown) => e);
    expect(isNetworkError(error)).toBe(true);
    expect(error).toMatchObject({ networkCode: "ECONNREFUSED", maybeApplied: false, attempts: 2 });
  });
});
