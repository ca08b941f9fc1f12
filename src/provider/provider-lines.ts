/**
 * The one way the provider core says a line to the person running `pulumi`: a Deployment's
 * progress, the name-service commands a node write sends, a takeover, the attributes left out on
 * Confluent, and the clients' retries and warnings.
 *
 * Where a line goes depends on the shell that runs the core, so the core never writes to a
 * stream itself:
 * - the dynamic-provider host (TypeScript programs): the process's stderr, which the engine
 *   shows in `pulumi up`/`preview` output for the dynamic plugin only
 *   (sdk/go/common/resource/plugin/plugin.go:324-359 at v3.259.0, `isDynamicPluginBinary`);
 *   warnings as process warnings, which reach stderr too. This is the default.
 * - the native provider (src/native): the engine's Log service, under the resource the line is
 *   about, because the engine hides a native plugin's stderr unless run with `-v` (same lines of
 *   plugin.go). The native layer installs its sink with {@link setLineSink}.
 */
import type { XcatLogger } from "../client";

export type LineSeverity = "info" | "warning";

/**
 * Where lines go. `warningType` is the process-warning type a warning had on stderr
 * (XcatClientWarning, ConfluentClientWarning), for sinks that keep it.
 */
export type LineSink = (line: string, severity: LineSeverity, warningType?: string) => void;

/** The dynamic-provider host's way: stderr, warnings as process warnings (as before this module). */
const stderrSink: LineSink = (line, severity, warningType) => {
  if (severity === "warning") process.emitWarning(line, { type: warningType ?? "Warning" });
  else process.stderr.write(`${line}\n`);
};

let sink: LineSink = stderrSink;

/**
 * Sends every later line to `next`; `undefined` restores stderr.
 *
 * @example
 * setLineSink((line, severity) => engineLog.send(line, severity));
 */
export function setLineSink(next: LineSink | undefined): void {
  sink = next ?? stderrSink;
}

/**
 * Says one line (no trailing newline) about the operation under way.
 *
 * @example
 * sayLine(`xcat:Deployment batch 1/3 (r01n[01-04]): nodeset install`);
 */
export function sayLine(line: string): void {
  sink(line, "info");
}

/** Runs `run` (synchronous) with every line it would say left unsaid. */
export function withoutLines<T>(run: () => T): T {
  const previous = sink;
  sink = () => {};
  try {
    return run();
  } finally {
    sink = previous;
  }
}

/** Says a warning (a client's: TLS checks off, credentials over plain http). */
export function sayWarning(message: string, warningType: string): void {
  sink(message, "warning", warningType);
}

/**
 * A client logger whose lines go where the provider's lines go: warnings always, `info` (retries,
 * token renewals) and `debug` (every exchange, redacted by the client) at those levels.
 */
export function providerLogger(
  level: "warn" | "info" | "debug" | undefined,
  warningType: string,
): XcatLogger {
  const line = (message: string) => sayLine(`pulumi-xcat: ${message}`);
  return {
    warn: (message) => sayWarning(message, warningType),
    ...(level === "info" || level === "debug" ? { info: line } : {}),
    ...(level === "debug" ? { debug: line } : {}),
  };
}
