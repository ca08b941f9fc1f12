/**
 * State shared by every resource kind in one provider process: the settings the engine sent to
 * `configure` (process-settings.ts, re-exported here), and one XcatClient (one keep-alive pool,
 * one token) per management node.
 */
import { isAuthError, isNetworkError, isTimeoutError, XcatClient } from "../client";
import { type ConnectionInput, clientOptionsFor } from "./config";
import { engineCallers } from "./engine-callers";
import { forgetPlanned } from "./planned-objects";
import { forgetProcessSettings, processCancelSignal, processSettings } from "./process-settings";
import { forgetReplacements } from "./replacements";
import { howToSet, type SettingsOrigin, settingName } from "./setting-advice";

export {
  cancelProcessRequests,
  checkingAs,
  configureProcess,
  processCancelSignal,
  processRequestsCancelled,
  processSettings,
} from "./process-settings";

const clients = new Map<string, XcatClient>();
/**
 * The client of each connection input already seen, so that the calls after the first (one or
 * more per resource) skip building client options, which reads a `caCert` given as a file path.
 */
const clientsByInput = new Map<string, XcatClient>();
/** One connection check per client, shared by every resource that uses it. */
const checks = new Map<XcatClient, Promise<void>>();
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
  forgetProcessSettings();
  await Promise.all(otherResets.map((reset) => reset()));
  forgetPlanned();
  forgetReplacements();
  checks.clear();
  clientsByInput.clear();
  const closing = [...clients.values()].map((client) => client.close());
  clients.clear();
  await Promise.all(closing);
}
