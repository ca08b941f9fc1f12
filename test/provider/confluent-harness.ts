/**
 * The Confluent provider suites' harness: a fresh confluent-emulator, the provider configured for
 * it, a client of its own for hand edits, and a recording HTTP proxy in between, from
 * which a test reads back exactly what reached the server (method, path, JSON body) to compare
 * with what a real Confluent 3.15.6 was sent and accepted.
 */
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ConfluentClient } from "../../src/client/confluent";
import {
  type ConfluentEmulatorOptions,
  type RunningConfluentEmulator,
  startConfluentEmulator,
} from "../../src/confluent-emulator";
import { configureProcess, resetProcessContext } from "../../src/provider/process-context";
import * as runtime from "../../src/provider/runtime";

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

export interface ConfluentProviderHarness {
  readonly emulator: RunningConfluentEmulator;
  /** A client of its own, straight to the emulator, for hand edits and inspection. */
  readonly admin: ConfluentClient;
  /** What the provider sent. */
  readonly proxy: RecordingProxy;
  /** Everything the provider wrote to stderr (progress lines) while the harness was up. */
  readonly stderr: string[];
  close(): Promise<void>;
}

/**
 * A fresh confluent-emulator with the provider configured for it (`xcat:backend` confluent), as
 * Pulumi's dynamic-provider host configures it, through a recording proxy. The provider's stderr
 * is captured (and not printed) until close().
 */
export async function confluentProviderHarness(
  options: ConfluentEmulatorOptions,
): Promise<ConfluentProviderHarness> {
  const emulator = await startConfluentEmulator(options);
  const proxy = await recordingProxy(emulator.url);
  const admin = new ConfluentClient({ url: emulator.url, username: "root", password: "cluster" });
  await resetProcessContext();
  const config: Record<string, string> = {
    "xcat:backend": "confluent",
    "xcat:url": proxy.url,
    "xcat:username": "root",
    "xcat:password": "cluster",
  };
  configureProcess((key) => config[key]);
  const stderr: string[] = [];
  const writeStderr = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  return {
    emulator,
    admin,
    proxy,
    stderr,
    async close() {
      process.stderr.write = writeStderr;
      await admin.close();
      await resetProcessContext();
      await proxy.close();
      await emulator.close();
    },
  };
}

/** A Deployment of `nodes` to `profile` checked (it must pass) and created, polling every 0.2 s. */
export async function createDeployment(nodes: string, profile: string) {
  const checked = await runtime.check(
    "xcat:Deployment",
    {},
    { nodes, osimage: profile, canary: 0, pollSeconds: 0.2, timeoutMinutes: 1 },
  );
  if (checked.failures) throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
  return runtime.create("xcat:Deployment", checked.inputs);
}
