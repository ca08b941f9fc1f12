/**
 * A recording HTTP proxy in front of a confluent-emulator: the provider talks to it as to the
 * server, and a test reads back exactly what reached the server (method, path, JSON body), to
 * compare with what a real Confluent 3.15.6 was sent and accepted.
 */
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  readonly method: string;
  /** The path below /confluent-api, as sent (percent-encoding kept). */
  readonly path: string;
  readonly body: unknown;
}

export interface RecordingProxy {
  /** The proxy's URL, with the upstream's /confluent-api path. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function recordingProxy(upstreamUrl: string): Promise<RecordingProxy> {
  const upstream = new URL(upstreamUrl);
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const path = (req.url ?? "").slice(upstream.pathname.length);
      // Sessions are the client's business, not the operation's.
      if (!path.startsWith("/sessions/")) {
        requests.push({
          method: req.method ?? "",
          path,
          body: body.length > 0 ? JSON.parse(body.toString()) : undefined,
        });
      }
      const forward = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on("error", (error) => {
        res.writeHead(502);
        res.end(String(error));
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
