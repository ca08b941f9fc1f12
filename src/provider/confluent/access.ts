/**
 * The Confluent backend's clients in one provider process: one ConfluentClient (one connection
 * pool, one session) per server and account, and one connection check per client, as
 * process-context.ts keeps them for xCAT.
 */
import { isAuthError, isNetworkError, isTimeoutError } from "../../client";
import { ConfluentClient } from "../../client/confluent";
import { type ConnectionInput, confluentClientOptionsOf, ProviderConfigError } from "../config";
import {
  type BackendAccess,
  onProcessReset,
  processCancelSignal,
  processSettings,
  skipCheckHint,
} from "../process-context";
import { providerLogger } from "../provider-lines";

const clients = new Map<string, ConfluentClient>();
const checks = new Map<ConfluentClient, Promise<void>>();

function clientFor(connection: ConnectionInput | undefined): ConfluentClient {
  const settings = processSettings();
  const chosen = connection ?? settings.connection;
  const provider = settings.origin.explicitProvider;
  if (!chosen) {
    const setUrl =
      provider === undefined
        ? "Set it with `pulumi config set xcat:url https://<server>/confluent-api`"
        : `Give the provider '${provider}' a url`;
    throw new ProviderConfigError(
      `no Confluent URL is set. ${setUrl} (or XCAT_URL), or give the resource a \`connection\`.`,
    );
  }
  if (!chosen.username || !chosen.password) {
    const credentials =
      provider === undefined
        ? "set xcat:username and xcat:password (pulumi config set --secret xcat:password …)"
        : `give the provider '${provider}' a username and password (a secret)`;
    throw new ProviderConfigError(
      `no credentials for ${chosen.url}. Confluent takes a user and password: ${credentials} or ` +
        "XCAT_USERNAME/XCAT_PASSWORD.",
    );
  }
  // The key holds the password, but it never leaves this process's memory.
  const key = JSON.stringify([chosen.url, chosen.username, chosen.password, chosen.caCert, chosen.insecure]);
  let client = clients.get(key);
  if (!client) {
    client = new ConfluentClient({
      ...confluentClientOptionsOf(
        chosen,
        chosen.username,
        chosen.password,
        chosen === settings.connection ? settings.urlAsGiven : undefined,
      ),
      ...(settings.requestTimeoutMs !== undefined ? { requestTimeoutMs: settings.requestTimeoutMs } : {}),
      ...(settings.maxRetries !== undefined ? { retry: { attempts: settings.maxRetries + 1 } } : {}),
      ...(settings.maxConcurrency !== undefined ? { maxConcurrency: settings.maxConcurrency } : {}),
      batching: settings.batching,
      signal: processCancelSignal(),
      logger: providerLogger(settings.logLevel, "ConfluentClientWarning"),
    });
    clients.set(key, client);
  }
  return client;
}

function checkConnectionOnce(connection: ConnectionInput | undefined): Promise<void> {
  if (!processSettings().checkConnection) return Promise.resolve();
  const client = clientFor(connection);
  let check = checks.get(client);
  if (!check) {
    check = client.verifyConnection().catch((error: unknown) => {
      if (error instanceof Error && (isAuthError(error) || isNetworkError(error) || isTimeoutError(error))) {
        const why = isAuthError(error)
          ? `the Confluent server at ${client.url} refused the user and password`
          : `cannot reach the Confluent server at ${client.url}`;
        Object.defineProperty(error, "message", {
          value: `pulumi-xcat: ${why}. ${error.message} ${skipCheckHint(processSettings().origin)}`,
          configurable: true,
          writable: true,
        });
      }
      throw error;
    });
    checks.set(client, check);
  }
  return check;
}

export const confluentAccess: BackendAccess<ConfluentClient> = { clientFor, checkConnectionOnce };

onProcessReset(async () => {
  checks.clear();
  const closing = [...clients.values()].map((client) => client.close());
  clients.clear();
  await Promise.all(closing);
});
