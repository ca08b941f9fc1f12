/**
 * Which management node a resource of the stack lives on, so that the rules compare per
 * management node (issue #36 N8): a node name or address used on two management nodes is two
 * machines in two clusters, not a clash. A resource's server is its own `connection` (TypeScript),
 * else the provider that serves it (its url and backend, as YAML, Python and Go name it), else
 * the stack's own settings. Servers are told apart as server-identity.ts tells them apart for a
 * move; a provider or connection whose url is unknown during preview is keyed by the provider's
 * URN (or "unknown connection"), so the rules then compare within what is known to be together.
 */
import { serverIdentity } from "../provider/server-identity";
import { UNKNOWN } from "./cluster-view";

/** The parts of a policy resource the key is taken from. */
export interface PlacedResource {
  readonly props: Readonly<Record<string, unknown>>;
  /** The serving provider: its URN and its inputs (url, backend), undefined for the default one. */
  readonly provider?: { readonly urn: string; readonly props: Readonly<Record<string, unknown>> } | undefined;
}

/** The key of the stack's own settings (the default provider, or a TypeScript resource without a connection). */
export const STACK_SERVER = "stack";

const isDefaultProvider = (urn: string) => /::default(_[\w-]+)?$/.test(urn);

function keyOf(settings: Readonly<Record<string, unknown>>): string | undefined {
  const url = settings.url;
  if (url === UNKNOWN || settings.backend === UNKNOWN) return undefined;
  if (typeof url !== "string" || url === "") return undefined;
  const identity = serverIdentity({ url, backend: settings.backend });
  return identity.known ? `${identity.backend} ${identity.url ?? ""}` : undefined;
}

/** The management node key of one resource. */
export function managementNodeOf(resource: PlacedResource): string {
  const connection = resource.props.connection;
  if (connection === UNKNOWN) return "unknown connection";
  if (typeof connection === "object" && connection !== null)
    return keyOf(connection as Record<string, unknown>) ?? "unknown connection";
  const provider = resource.provider;
  if (provider === undefined || isDefaultProvider(provider.urn)) return STACK_SERVER;
  return keyOf(provider.props) ?? provider.urn;
}

/** The resources grouped by management node, in their order. */
export function byManagementNode<T extends PlacedResource>(resources: readonly T[]): T[][] {
  const groups = new Map<string, T[]>();
  for (const resource of resources) {
    const key = managementNodeOf(resource);
    groups.set(key, [...(groups.get(key) ?? []), resource]);
  }
  return [...groups.values()];
}
