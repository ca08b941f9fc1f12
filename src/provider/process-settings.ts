/**
 * The provider process's settings (from the engine's `configure`, or the environment) and its
 * cancellation, apart from the clients built from them (process-context.ts): a native provider
 * answers Configure and Cancel with this module alone, without loading the clients' HTTP
 * transport and response schemas (src/native/server.ts says why that matters).
 *
 * One provider process serves all dynamic resources of a stack (pulumi-notes.md 1.1), and the
 * engine calls `configure` once per kind with the same stack config; the first call wins.
 */
import { type ProviderSettings, settingsFrom } from "./config";
import { withoutLines } from "./provider-lines";
import { type SettingsOrigin, STACK_CONFIG } from "./setting-advice";

let settings: ProviderSettings | undefined;

/**
 * The signal every xCAT client of this process is built with: {@link cancelProcessRequests}
 * aborts it, which cuts off the requests in flight and refuses later ones (XcatClientOptions.signal).
 */
let cancellation = new AbortController();

/**
 * Cancels the process's xCAT requests for good: the ones in flight are aborted (a write among
 * them fails as "may or may not have been applied"), later ones fail without being sent. For a
 * native provider's Cancel while the engine's calls are under way; the process ends after it.
 */
export function cancelProcessRequests(reason: Error): void {
  cancellation.abort(reason);
}

/** The signal the process's clients of every backend are built with. */
export function processCancelSignal(): AbortSignal {
  return cancellation.signal;
}

/** Whether {@link cancelProcessRequests} was called (since the last reset). */
export function processRequestsCancelled(): boolean {
  return cancellation.signal.aborted;
}

/**
 * Records the provider settings from the engine's configure request; `origin` says whether they
 * are stack config or an explicit provider's inputs (for how messages name a setting).
 */
export function configureProcess(
  lookup: (key: string) => string | undefined,
  origin: SettingsOrigin = STACK_CONFIG,
): void {
  settings ??= settingsFrom(lookup, process.env, origin);
}

/** The settings, read from the environment alone when the engine never called `configure`. */
export function processSettings(): ProviderSettings {
  settings ??= settingsFrom(() => undefined, process.env);
  return settings;
}

/**
 * Runs a pure check (synchronous) as another provider of the same program would: with its
 * `confluentOmit` and the origin messages name its settings by, and without the lines it would
 * say (that provider's own process says them for its resources). For a YAML program's resources
 * checked in the process of the provider that refused the first one (native/yaml-program-check.ts).
 */
export function checkingAs<T>(provider: Pick<ProviderSettings, "confluentOmit" | "origin">, run: () => T): T {
  const own = processSettings();
  settings = { ...own, confluentOmit: provider.confluentOmit, origin: provider.origin };
  try {
    return withoutLines(run);
  } finally {
    settings = own;
  }
}

/** Forgets the settings and a past cancel (for resetProcessContext in process-context.ts). */
export function forgetProcessSettings(): void {
  settings = undefined;
  cancellation = new AbortController();
}
