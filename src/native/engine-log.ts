/**
 * The native provider's lines (a Deployment's progress, name-service commands, takeovers, the
 * attributes left out on Confluent, client warnings) said through the engine's Log service, under
 * the resource the engine's call is about.
 *
 * Why not stderr, as the dynamic provider does: the engine shows a resource plugin's stderr only
 * for the dynamic-provider binaries; every other plugin's goes to the debug log, seen with `-v`
 * alone (sdk/go/common/resource/plugin/plugin.go:324-359 at v3.259.0, `isDynamicPluginBinary`).
 * The engine starts a provider with the address of its gRPC Engine service as the last argument
 * (provider_plugin.go:287-288; plugin.go:728-743 puts `--logtostderr`, `-v=N` and `--tracing X`
 * before it), and prints what Engine.Log receives in `pulumi up`/`preview` output, a URN putting
 * it under that resource (pkg/host/host_server.go:92-113).
 *
 * Each call's lines are sent in order, one at a time, and delivered before the call answers
 * ({@link linesDelivered}), so none is lost when the engine closes the provider after the last
 * step. A line the engine does not take is written to stderr instead.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import * as grpc from "@grpc/grpc-js";
import { EngineClient } from "@pulumi/pulumi/proto/engine_grpc_pb";
import { LogRequest, LogSeverity } from "@pulumi/pulumi/proto/engine_pb";
import { type LineSeverity, setLineSink } from "../provider/provider-lines";

/**
 * The engine's address among the plugin's arguments: the first that is no logging or tracing flag.
 *
 * @example
 * engineAddressOf(["--logtostderr", "-v=9", "--tracing", "x", "127.0.0.1:39011"]); // "127.0.0.1:39011"
 */
export function engineAddressOf(args: readonly string[]): string | undefined {
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (arg === "--tracing") {
      index += 1;
      continue;
    }
    if (arg.startsWith("-")) continue;
    return arg;
  }
  return undefined;
}

/** The resource (URN) whose engine call is running, for the lines said within it. */
const speaking = new AsyncLocalStorage<string>();

/**
 * Runs an engine call's work with its lines said under `urn` (a resource's, or for Configure a
 * provider's).
 *
 * @example
 * await speakingFor(request.getUrn(), () => runtime.create(kind, inputs));
 */
export function speakingFor<T>(urn: string, run: () => Promise<T>): Promise<T> {
  return speaking.run(urn, run);
}

/** The lines not yet delivered, per URN ("" for those said outside any call). */
const pending = new Map<string, Promise<void>>();

/** Settles when every line said so far under `urn` has reached the engine (or stderr). */
export function linesDelivered(urn: string): Promise<void> {
  return pending.get(urn) ?? Promise.resolve();
}

/** How long one line may take to reach the engine before it goes to stderr instead. */
const LOG_DEADLINE_MS = 10_000;

const SEVERITY: Readonly<Record<LineSeverity, LogSeverity>> = {
  info: LogSeverity.INFO,
  warning: LogSeverity.WARNING,
};

/**
 * Sends the provider's lines to the engine at `address` from now on (provider-lines.ts).
 * Returns a function that closes the connection.
 */
export function sayLinesThroughEngine(address: string): () => void {
  const engine = new EngineClient(address, grpc.credentials.createInsecure());
  const send = (request: LogRequest) =>
    new Promise<void>((resolveSend) => {
      // A Log the engine never answers must not hold the call it belongs to.
      engine.log(request, new grpc.Metadata(), { deadline: Date.now() + LOG_DEADLINE_MS }, (error) => {
        // The engine gone or refusing: the line still reaches the plugin's log.
        if (error) process.stderr.write(`${request.getMessage()}\n`);
        resolveSend();
      });
    });
  setLineSink((line, severity) => {
    const urn = speaking.getStore() ?? "";
    const request = new LogRequest()
      .setSeverity(SEVERITY[severity])
      .setMessage(line)
      .setUrn(urn)
      .setStreamid(0)
      .setEphemeral(false);
    const after = pending.get(urn) ?? Promise.resolve();
    const sent = after.then(() => send(request));
    pending.set(urn, sent);
    void sent.then(() => {
      if (pending.get(urn) === sent) pending.delete(urn);
    });
  });
  return () => {
    setLineSink(undefined);
    engine.close();
  };
}
