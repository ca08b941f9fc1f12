/**
 * State shared by every resource kind in one provider process: the settings the engine sent to
 * `configure`, and one XcatClient (one keep-alive pool, one token) per management node.
 *
 * One provider process serves all dynamic resources of a stack (pulumi-notes.md 1.1), and the
 * engine calls `configure` once per kind with the same stack config; the first call wins.
 */
import { XcatClient } from "../client";
import { type ConnectionInput, clientOptionsFor, type ProviderSettings, settingsFrom } from "./config";

let settings: ProviderSettings | undefined;
const clients = new Map<string, XcatClient>();

/** Records the provider settings from the engine's configure request. */
export function configureProcess(lookup: (key: string) => string | undefined): void {
  settings ??= settingsFrom(lookup, process.env);
}

/** The settings, read from the environment alone when the engine never called `configure`. */
export function processSettings(): ProviderSettings {
  settings ??= settingsFrom(() => undefined, process.env);
  return settings;
}

/**
 * The client for a resource: its own `connection` when it has one, the provider's otherwise.
 * Clients are created on first use and kept for the life of the process.
 */
export function clientFor(connection: ConnectionInput | undefined): XcatClient {
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
    client = new XcatClient({ ...options, batching: current.batching });
    clients.set(key, client);
  }
  return client;
}

/** Forgets settings and closes clients (tests run many configurations in one process). */
export async function resetProcessContext(): Promise<void> {
  settings = undefined;
  const closing = [...clients.values()].map((client) => client.close());
  clients.clear();
  await Promise.all(closing);
}
