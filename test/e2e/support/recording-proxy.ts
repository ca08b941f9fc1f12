/**
 * A plain-HTTP proxy on 127.0.0.1 in front of a real server (a Confluent's API on its own port):
 * the e2e suites point the engine at it to count the requests a run sends, which a real server
 * does not report the way the emulators' request logs do. Requests and answers pass unchanged
 * (headers, bodies, status), only the method and path of each is recorded.
 */
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordingProxy {
  /** The proxy's base URL: the target's path prefix kept, its host replaced. */
  readonly url: string;
  /** Every request passed on so far (method, path without query), oldest first. */
  requests(): { readonly method: string; readonly path: string }[];
  close(): Promise<void>;
}

export async function startRecordingProxy(targetUrl: string): Promise<RecordingProxy> {
  const target = new URL(targetUrl);
  if (target.protocol !== "http:") throw new Error(`recording proxy: only http targets, got ${targetUrl}`);
  const seen: { method: string; path: string }[] = [];
  const server = createServer((incoming, outgoing) => {
    const path = incoming.url ?? "/";
    seen.push({ method: incoming.method ?? "GET", path: path.split("?")[0] ?? path });
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port || 80,
        method: incoming.method,
        path,
        headers: { ...incoming.headers, host: target.host },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on("error", (error) => outgoing.destroy(error));
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = new URL(targetUrl);
  url.host = `127.0.0.1:${port}`;
  return {
    url: url.toString().replace(/\/$/, ""),
    requests: () => [...seen],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
