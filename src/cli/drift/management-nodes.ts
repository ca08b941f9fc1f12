/**
 * Which management nodes drift lists, how it reaches each, and what it found on them: the
 * stack's own (its config `xcat:*`, then `XCAT_*`: the default provider's settings) when a
 * resource is on it or it is configured, and each explicit `pulumi:providers:xcat` its resources
 * use (its own url, account and backend, read from the state: provider-settings.ts), and each
 * server TypeScript resources reach by their own `connection` (the connection of one of them, read
 * from the state; known by the server its state records, make-provider.ts), so coverage is
 * counted per management node for them too. A connection whose server the state does not record
 * yet (written before the record) is not listed (the reason is said). Management nodes reached two
 * ways (an explicit provider at the stack's own URL) are listed once, their resources together,
 * so a node counts as under code only on the management node its resource writes to.
 */
import { compareStrings } from "../../contract/noderange";
import type { ProviderSettings } from "../../provider/config";
import { connectionSettings, explicitProviderSettings, exportStack } from "../provider-settings";
import { settingsForStackConfig } from "../review/cluster-reads";
import {
  describeManagementNode,
  explicitProviders,
  type ManagementNode,
  managementNodeOf,
  SECRET_CONNECTION,
  STACK_MANAGEMENT_NODE,
} from "../stack-resources";
import { listManagementNode } from "./listings";
import type { RefreshPreview } from "./refresh-events";
import { findUnmanaged, type ListedType, type Unmanaged } from "./unmanaged";

export interface ListedManagementNodes {
  readonly unmanaged: Unmanaged[];
  /** Management nodes not listed, and why. */
  readonly notListed: string[];
}

type Managed = ReadonlyMap<string, ReadonlyMap<ListedType, ReadonlySet<string>>>;

/** A management node to list: the keys of its resources, its name for a reader, its settings. */
interface Target {
  readonly keys: string[];
  readonly name: string;
  readonly settings: ProviderSettings;
}

/** One server: its backend and URL (trailing slashes aside). */
function serverOf(settings: ProviderSettings): string | undefined {
  const connection = settings.connection;
  return connection ? `${connection.backend ?? "xcat"} ${connection.url.replace(/\/+$/, "")}` : undefined;
}

export async function listManagementNodes(
  stack: string,
  events: RefreshPreview,
  managed: Managed,
): Promise<ListedManagementNodes> {
  const notListed: string[] = [];
  const nodes = new Map<string, ManagementNode>();
  /** For a connection's server: a resource whose state holds that connection. */
  const holders = new Map<string, string>();
  const providers = explicitProviders(events.steps);
  for (const step of events.steps) {
    const node = managementNodeOf(step, providers, events.config);
    if (managed.has(node.key) && !nodes.has(node.key)) nodes.set(node.key, node);
    if (node.route.via === "connection" && step.urn !== undefined && !holders.has(node.key))
      holders.set(node.key, step.urn);
  }
  let exported: Promise<unknown> | undefined;
  const state = () => {
    exported ??= exportStack(stack);
    return exported;
  };
  const targets: Target[] = [];
  const stackSettings = await settingsForStackConfig(events.config, stack);
  if (managed.has(STACK_MANAGEMENT_NODE) || stackSettings.connection !== undefined) {
    targets.push({ keys: [STACK_MANAGEMENT_NODE], name: STACK_MANAGEMENT_NODE, settings: stackSettings });
  }
  // By name: the refresh reads resources in parallel, so its order is not the same twice.
  const viaProviders = [...nodes.values()]
    .filter((node) => node.route.via === "provider")
    .sort((a, b) => compareStrings(describeManagementNode(a), describeManagementNode(b)));
  if (viaProviders.length > 0) {
    const settings = explicitProviderSettings(await state());
    for (const node of viaProviders) {
      const found = settings.get(node.key);
      if (found === undefined) {
        notListed.push(`${describeManagementNode(node)}: the state holds no such provider`);
        continue;
      }
      targets.push({ keys: [node.key], name: describeManagementNode(node), settings: found });
    }
  }
  const viaConnections = [...nodes.values()]
    .filter((node) => node.route.via === "connection")
    .sort((a, b) => compareStrings(describeManagementNode(a), describeManagementNode(b)));
  for (const node of viaConnections) {
    if (node.route.via !== "connection") continue;
    const holder = holders.get(node.key);
    const found =
      holder === undefined || node.route.url === SECRET_CONNECTION
        ? undefined
        : connectionSettings(await state(), holder);
    if (found !== undefined) {
      targets.push({ keys: [node.key], name: describeManagementNode(node), settings: found });
      continue;
    }
    notListed.push(
      `${node.route.url}, which resources reach through their own \`connection\`: drift lists the stack's ` +
        "management node (xcat:url) and its providers'; run it on a stack whose config points there to list that one",
    );
  }
  const unmanaged: Unmanaged[] = [];
  for (const target of mergeSameServer(targets)) {
    const listing = await listManagementNode(target.settings);
    const ours = new Map<ListedType, Set<string>>();
    for (const key of target.keys) {
      for (const [type, names] of managed.get(key) ?? []) {
        ours.set(type, new Set([...(ours.get(type) ?? []), ...names]));
      }
    }
    const found = findUnmanaged(target.name, listing, ours);
    // Confluent is compared in nodes only (listings.ts): its other kinds are not listed.
    const confluent = target.settings.connection?.backend === "confluent";
    unmanaged.push(...found.filter((entry) => !confluent || entry.type === "xcat:Node"));
  }
  return { unmanaged, notListed };
}

/** Targets on one server become one, named as the first (the stack's own comes first). */
function mergeSameServer(targets: readonly Target[]): Target[] {
  const merged = new Map<string, Target>();
  for (const target of targets) {
    const server = serverOf(target.settings) ?? target.name;
    const seen = merged.get(server);
    merged.set(server, seen ? { ...seen, keys: [...seen.keys, ...target.keys] } : target);
  }
  return [...merged.values()];
}
