/**
 * State shared by every resource kind in one provider process: the settings the engine sent to
 * `configure`, and one XcatClient (one keep-alive pool, one token) per management node.
 *
 * One provider process serves all dynamic resources of a stack (pulumi-notes.md 1.1), and the
 * engine calls `configure` once per kind with the same stack config; the first call wins.
 */
import { isAuthError, isNetworkError, isTimeoutError, XcatClient } from "../client";
import { type ConnectionInput, clientOptionsFor, type ProviderSettings, settingsFrom } from "./config";
import { engineCallers } from "./engine-callers";
import { forgetPlanned } from "./planned-objects";
import { withoutLines } from "./provider-lines";
import { forgetReplacements } from "./replacements";
import { howToSet, type SettingsOrigin, STACK_CONFIG, settingName } from "./setting-advice";

let settings: ProviderSettings | undefined;
const clients = new Map<string, XcatClient>();
/**
 * The client of each connection input already seen, so that the calls after the first (one or
 * more per resource) skip building client options, which reads a `caCert` given as a file path.
 */
const clientsByInput = new Map<string, XcatClient>();
/** One connection check per client, shared by every resource that uses it. */
const checks = new Map<XcatClient, Promise<void>>();
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

/**
 * The client for a resource: its own `connection` when it has one, the provider's otherwise.
 * Clients are created on first use and kept for the life of the process.
 */
export function clientFor(connection: ConnectionInput | undefined): XcatClient {
  // The input holds credentials too; like the key below, it never leaves this process's memory.
  const input = JSON.stringify(connection ?? null);
  const known = clientsByInput.get(input);
  if (known) return known;
  const current = processSettings();
  const options = clientOptionsFor(connection ?? current.connection, current);
  // The key holds credentials, but it never leaves this process's memory.
  const key = JSON.stringify([
    options.url,
    options.username,
    options.password,
    options.token,
    options.caCert,
  ]);
  let client = clients.get(key);
  if (!client) {
    client = new XcatClient({
      ...options,
      batching: current.batching,
      callers: engineCallers,
      signal: processCancelSignal(),
    });
    clients.set(key, client);
  }
  clientsByInput.set(input, client);
  return client;
}

/**
 * Proves once per provider process and management node that the connection works, so that a
 * preview fails on a wrong password or URL instead of the `up` after it. The one request is the
 * token request the client needs anyway: the calls of `up` reuse its token. Skipped when
 * `xcat:checkConnection` is false.
 */
export function checkConnectionOnce(connection: ConnectionInput | undefined): Promise<void> {
  if (!processSettings().checkConnection) return Promise.resolve();
  const client = clientFor(connection);
  const url = connection?.url ?? processSettings().connection?.url ?? "";
  let check = checks.get(client);
  if (!check) {
    const origin = processSettings().origin;
    const where = connection
      ? "the resource's connection"
      : origin.explicitProvider === undefined
        ? "stack config xcat:username/xcat:password/xcat:token (or XCAT_USERNAME/XCAT_PASSWORD/XCAT_TOKEN)"
        : `the username/password/token inputs of the provider '${origin.explicitProvider}'`;
    check = client.verifyConnection().catch((error: unknown) => {
      throw explainedCheckFailure(error, url, where, origin);
    });
    checks.set(client, check);
    return check;
  }
  // Resources checked after the first one say so briefly: the reason is reported once.
  return check.catch(() => {
    throw new Error(`pulumi-xcat: not checked, as the connection to ${url} failed (see the first error).`);
  });
}

/** How to preview without a connection, for the provider whose settings these are. */
export function skipCheckHint(origin: SettingsOrigin): string {
  return `To preview without a connection, ${howToSet("checkConnection", "false", origin)} (or XCAT_CHECK_CONNECTION=false).`;
}

/** Says what failed in words for the person who configured the connection. */
function explainedCheckFailure(error: unknown, url: string, where: string, origin: SettingsOrigin): unknown {
  if (!(error instanceof Error)) return error;
  let explanation: string | undefined;
  if (isAuthError(error)) {
    explanation =
      `pulumi-xcat: the xCAT service at ${url} refused the account and password (or token) from ${where}. ` +
      "Check them there.";
  } else if (isNetworkError(error) || isTimeoutError(error)) {
    explanation = `pulumi-xcat: cannot reach the xCAT service at ${url} (set in ${settingName("url", origin)}, XCAT_URL or the resource's connection).`;
  }
  if (explanation === undefined) return error;
  Object.defineProperty(error, "message", {
    value: `${explanation} ${error.message} ${skipCheckHint(origin)}`,
    configurable: true,
    writable: true,
  });
  return error;
}

/**
 * How make-provider.ts reaches a backend: the client of a resource's connection, and the one
 * connection check per server. The xCAT backend's is below; the Confluent backend's is in
 * confluent/access.ts.
 */
export interface BackendAccess<Client> {
  clientFor(connection: ConnectionInput | undefined): Client;
  checkConnectionOnce(connection: ConnectionInput | undefined): Promise<void>;
}

export const xcatAccess: BackendAccess<XcatClient> = { clientFor, checkConnectionOnce };

/** Other backends' client caches, closed with the xCAT ones by {@link resetProcessContext}. */
const otherResets: Array<() => Promise<void>> = [];

/** Registers another backend's reset (its clients and checks) with {@link resetProcessContext}. */
export function onProcessReset(reset: () => Promise<void>): void {
  otherResets.push(reset);
}

/** Forgets settings and closes clients (tests run many configurations in one process). */
export async function resetProcessContext(): Promise<void> {
  settings = undefined;
  cancellation = new AbortController();
  await Promise.all(otherResets.map((reset) => reset()));
  forgetPlanned();
  forgetReplacements();
  checks.clear();
  clientsByInput.clear();
  const closing = [...clients.values()].map((client) => client.close());
  clients.clear();
  await Promise.all(closing);
}
