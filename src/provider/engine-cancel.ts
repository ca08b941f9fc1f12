/**
 * How the provider process learns that the Pulumi engine asked to cancel (Ctrl-C or SIGTERM to
 * `pulumi`), so a long operation (a Deployment's batches) can stop starting new work.
 *
 * Why it has to be observed from outside: the CLI treats SIGINT and SIGTERM alike
 * (pkg/backend/cancellation_scope.go:64-118 at v3.259.0, `signal.Notify(..., os.Interrupt,
 * syscall.SIGTERM)` then `cancelSource.Cancel()`); the deployment executor then stops starting
 * steps and sends the Cancel RPC to every provider (pkg/resource/deploy/deployment_executor.go:
 * 136-150, host.SignalCancellation in pkg/host/host.go:580-600), while the steps in flight are
 * waited for (step.go calls Create/Update with context.TODO(), :366 and :1008;
 * deployment_executor.go:350 WaitForCompletion). But @pulumi/pulumi's dynamic-provider server
 * (3.259.0) answers Cancel with nothing (cmd/dynamic-provider/index.js:93-95, `cancel(call, callback) {
 * callback(undefined, new emptyproto.Empty()); }`), and the terminal's SIGINT never reaches the
 * provider process, which the CLI starts in a process group of its own
 * (sdk/go/common/resource/plugin/plugin.go:598, cmdutil.RegisterProcessGroup sets Setpgid).
 *
 * So the Cancel request is observed where it arrives. That server is @grpc/grpc-js on Node's
 * http2 (index.js:407 `new grpc.Server`, grpc-js server.js:382 `http2.createServer`), and a
 * gRPC call is an HTTP/2 stream whose `:path` is `/<package>.<Service>/<Method>` (gRPC over
 * HTTP/2 protocol), here `/pulumirpc.ResourceProvider/Cancel` (proto/provider_grpc_pb.js:726).
 * Two observers, each enough on its own, both reading headers only (grpc-js still answers):
 * - Node's diagnostics channel `http2.server.stream.start` (Node ≥ 24.2.0, nodejs/node#58449),
 *   which publishes every server stream with its headers;
 * - the documented `'stream'` event of each listening http2 server of this process, found with
 *   `process._getActiveHandles()` whenever an operation begins: for Node versions without that
 *   channel. The server listens before any operation: it prints its port first (index.js:424).
 *
 * The engine also sends Cancel at the end of every run, successful or not: the plugin host's
 * Close sends it to each provider before stopping it (pkg/host/host.go:637-656), once every step
 * has finished. So a Cancel aborts only the operations in flight when it arrives; an operation
 * that begins later is not affected, and the Cancel that ends a normal run finds none.
 */
import diagnosticsChannel from "node:diagnostics_channel";
import type { IncomingHttpHeaders } from "node:http2";
import { Server as NetServer } from "node:net";

/** The HTTP/2 `:path` of the engine's Cancel call on a resource provider. */
export const CANCEL_PATH = "/pulumirpc.ResourceProvider/Cancel";

/** The controllers of the operations in flight, aborted together by a Cancel. */
const inFlight = new Set<AbortController>();
/** Servers already observed, so each gets one listener. */
const observedServers = new WeakSet<object>();
/** Once the provider's server is observed, operations skip the search (one per create of a large stack). */
let serverObserved = false;
let subscribed = false;

function onStream(headers: IncomingHttpHeaders | undefined): void {
  if (headers?.[":path"] !== CANCEL_PATH) return;
  for (const controller of inFlight) controller.abort(new Error("the Pulumi engine asked to cancel"));
  inFlight.clear();
}

function onChannelMessage(message: unknown): void {
  onStream((message as { headers?: IncomingHttpHeaders } | undefined)?.headers);
}

/** The listening http2 servers of this process (grpc-js's among them), not yet observed. */
function http2ServersToObserve(): NetServer[] {
  const handles = (process as unknown as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.() ?? [];
  // An http2 server is a net.Server that emits 'stream'; grpc-js listens to that event.
  return handles.filter(
    (handle): handle is NetServer =>
      handle instanceof NetServer && handle.listenerCount("stream") > 0 && !observedServers.has(handle),
  );
}

function observe(): void {
  if (!subscribed) {
    diagnosticsChannel.subscribe("http2.server.stream.start", onChannelMessage);
    subscribed = true;
  }
  if (serverObserved) return;
  for (const server of http2ServersToObserve()) {
    observedServers.add(server);
    serverObserved = true;
    // The diagnostics channel may report the same stream: aborting twice does nothing more.
    server.prependListener("stream", (_stream: unknown, headers: IncomingHttpHeaders) => onStream(headers));
  }
}

/**
 * Runs `operation` with a signal that is aborted if the engine's Cancel arrives while it runs.
 *
 * @example
 * await whileCancellable((signal) => deploy(client, { ...plan, signal }, report));
 */
export async function whileCancellable<T>(operation: (signal: AbortSignal) => Promise<T>): Promise<T> {
  observe();
  const controller = new AbortController();
  inFlight.add(controller);
  try {
    return await operation(controller.signal);
  } finally {
    inFlight.delete(controller);
  }
}
