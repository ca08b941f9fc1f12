/**
 * Which servers the view draws for a stack, and a client for each, as drift lists them
 * (drift/management-nodes.ts): the stack's own (its config `xcat:*`, then `XCAT_*`) when it is
 * configured or a resource is on it, and each explicit `pulumi:providers:xcat` the state's
 * resources use, with its own url, account and backend (read from `pulumi stack export
 * --show-secrets` in this process's memory, provider-settings.ts; nothing of it is printed). Two
 * routes to one server (a provider at the stack's own URL) are one server, its resources together.
 * Resources with a `connection` of their own are not drawn (the page counts them).
 *
 * A server is named by its URL as the settings give it, never with a credential in it.
 */
import { XcatClient } from "../../client";
import type { ConfluentClient } from "../../client/confluent";
import { compareStrings } from "../../contract/noderange";
import { clientOptionsFor, type ProviderSettings } from "../../provider/config";
import { confluentClientFor } from "../drift/listings";
import { explicitProviderSettings } from "../provider-settings";
import { isXcatResource, managementNodeRoute, nameOfUrn, STACK_MANAGEMENT_NODE } from "../stack-resources";
import { stateResources } from "./stack-nodes";
import { confluentViewServer, type ViewServer, xcatViewServer } from "./view-source";

/** A URL as given, without a user or password in it (`https://u:p@mn/x` → `https://mn/x`). */
export function urlWithoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username === "" && parsed.password === "") return url;
    parsed.username = "";
    parsed.password = "";
    return parsed.toString();
  } catch {
    // Not a URL the client could use either; never echo what may be a credential in it.
    return url.replace(/\/\/[^/@]*@/, "//");
  }
}

interface Target {
  readonly keys: string[];
  readonly name: string;
  readonly settings: ProviderSettings;
}

const backendWord = (settings: ProviderSettings) =>
  settings.connection?.backend === "confluent" ? "Confluent" : "xCAT";

function shownUrl(settings: ProviderSettings): string {
  return urlWithoutCredentials(settings.urlAsGiven ?? settings.connection?.url ?? "?");
}

/** The stack's own server as a reader knows it (the xCAT form is the first slice's, kept). */
export function stackServerName(settings: ProviderSettings): string {
  return settings.connection?.backend === "confluent"
    ? `the stack's Confluent server (${shownUrl(settings)})`
    : `the stack's management node (${shownUrl(settings)})`;
}

/** The provider URNs the state's pulumi-xcat resources use, and whether any is on the stack's own server. */
export function serversInState(exported: unknown): { onStack: boolean; providers: string[] } {
  let onStack = false;
  const providers = new Set<string>();
  for (const resource of stateResources(exported)) {
    if (!isXcatResource(resource)) continue;
    const route = managementNodeRoute(resource);
    if (route.via === "stack") onStack = true;
    else if (route.via === "provider") providers.add(route.urn);
  }
  return { onStack, providers: [...providers].sort((a, b) => compareStrings(nameOfUrn(a), nameOfUrn(b))) };
}

/** Targets on one server (backend and URL) become one, named as the first (the stack's comes first). */
function mergeSameServer(targets: readonly Target[]): Target[] {
  const merged = new Map<string, Target>();
  for (const target of targets) {
    const connection = target.settings.connection;
    const server = connection
      ? `${connection.backend ?? "xcat"} ${connection.url.replace(/\/+$/, "")}`
      : target.name;
    const seen = merged.get(server);
    merged.set(server, seen ? { ...seen, keys: [...seen.keys, ...target.keys] } : target);
  }
  return [...merged.values()];
}

export interface ViewServers {
  readonly servers: ViewServer[];
  close(): Promise<void>;
}

/** A server whose client could not be made (its provider lacks a credential): its read says why. */
function unusable(name: string, keys: readonly string[], why: string): ViewServer {
  return {
    name,
    keys: new Set(keys),
    advice: "Give the provider what it lacks in the program.",
    read: () => Promise.reject(new Error(why)),
  };
}

/**
 * The servers of `exported` (a `stack export` without secrets) with a client each.
 * `exportWithSecrets` is called only when explicit providers are used. Throws (a sentence) when
 * the stack's own server is needed and not configured.
 */
export async function viewServers(
  stackSettings: ProviderSettings,
  exported: unknown,
  exportWithSecrets: () => Promise<unknown>,
): Promise<ViewServers> {
  const { onStack, providers } = serversInState(exported);
  const targets: Target[] = [];
  if (onStack || stackSettings.connection !== undefined || providers.length === 0) {
    targets.push({
      keys: [STACK_MANAGEMENT_NODE],
      name: stackServerName(stackSettings),
      settings: stackSettings,
    });
  }
  const skipped: ViewServer[] = [];
  if (providers.length > 0) {
    const settings = explicitProviderSettings(await exportWithSecrets());
    for (const urn of providers) {
      const found = settings.get(urn);
      if (found === undefined) {
        skipped.push(
          unusable(`provider ${nameOfUrn(urn)}`, [urn], "the stack's state holds no such provider"),
        );
        continue;
      }
      targets.push({
        keys: [urn],
        name: `provider ${nameOfUrn(urn)} (${shownUrl(found)}, ${backendWord(found)})`,
        settings: found,
      });
    }
  }
  const clients: Array<XcatClient | ConfluentClient> = [];
  const servers: ViewServer[] = [];
  for (const target of mergeSameServer(targets)) {
    const keys = new Set(target.keys);
    const isStack = target.keys.includes(STACK_MANAGEMENT_NODE);
    try {
      if (target.settings.connection?.backend === "confluent") {
        const client = confluentClientFor(target.settings);
        clients.push(client);
        servers.push(confluentViewServer(client, target.name, keys, adviceFor(isStack)));
      } else {
        const client = new XcatClient({
          ...clientOptionsFor(target.settings.connection, target.settings),
          batching: target.settings.batching,
        });
        clients.push(client);
        servers.push(xcatViewServer(client, target.name, keys, adviceFor(isStack)));
      }
    } catch (error) {
      // The stack's own server unusable with nothing else to draw: the command says it and stops.
      if (isStack && targets.length === 1) throw error;
      servers.push(unusable(target.name, target.keys, (error as Error).message));
    }
  }
  return {
    servers: [...servers, ...skipped],
    close: async () => {
      await Promise.all(clients.map((client) => client.close()));
    },
  };
}

function adviceFor(isStack: boolean): string {
  return isStack
    ? "Check that it runs and that the stack's config (xcat:url, xcat:username, xcat:password) or XCAT_* variables reach it from this shell."
    : "Check that it runs and that the provider's url and account in the program reach it from this shell.";
}
