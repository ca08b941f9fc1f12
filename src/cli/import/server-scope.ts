/**
 * One server of an import of several (issue #36 item 3, docs/bring-a-cluster-under-code.md "A
 * stack of several management nodes"): the program gets one explicit provider (YAML) or
 * `connection` (TypeScript) per server, named after it, and every resource goes through the one of
 * the server it was read from. What the renderers need to know of that server is here.
 *
 * Names: a resource name that two or more servers' objects would take (the group `all`, a
 * `compute` group, a node name reused in another hall) gets `-<server>` on every server that has
 * it; the object's own name (`name`, what xCAT or Confluent calls it) is kept. Config keys of the
 * server's own (its account, and the secrets its objects hold) start with `<server>-`, so two
 * servers never share one.
 */
import { deploymentName } from "./deployments";
import { type ImportedNodeSet, nodeSetResourceName } from "./node-sets";
import { expandRunNames } from "./runs";

/** The server a part of the program was read from. Absent: the import of one server, as before. */
export interface ServerScope {
  /** Its name in the program: the provider resource or connection, config keys, suffixes. */
  readonly name: string;
  readonly backend: "xcat" | "confluent";
  /** Resource names more than one server's part of the program would take. */
  readonly colliding: ReadonlySet<string>;
  /** Which parts of its account the program asks config for besides url (as the import reached it). */
  readonly account: {
    /** A token rather than username and password. */
    readonly token: boolean;
    readonly caCert: boolean;
    readonly insecure: boolean;
  };
}

/** The resource name of an object whose resource would be `base` for the import of one server. */
export function scopedResourceName(scope: ServerScope | undefined, base: string): string {
  return scope?.colliding.has(base) ? `${base}-${scope.name}` : base;
}

/** A config key of the server's own: `<server>-<key>`; the key itself for the import of one server. */
export function scopedConfigKey(scope: ServerScope | undefined, key: string): string {
  return scope === undefined ? key : `${scope.name}-${key}`;
}

/** The config keys of the server's connection (its account: url, username, password or token, TLS). */
export function connectionConfigKey(
  scope: Pick<ServerScope, "name">,
  field: "url" | "username" | "password" | "token" | "caCert" | "insecure",
): string {
  return `${scope.name}-${field}`;
}

/** What a cluster's resource names are made from: the parts of ImportedCluster the renderers name. */
export interface NamedCluster {
  readonly groups: ReadonlyArray<readonly [string, unknown]>;
  readonly osimages: ReadonlyArray<readonly [string, unknown]>;
  readonly networks: ReadonlyArray<readonly [string, unknown]>;
  readonly policies: ReadonlyArray<readonly [string, unknown]>;
  readonly site: ReadonlyArray<readonly [string, string]>;
  readonly tableRows: ReadonlyArray<{
    readonly table: string;
    readonly keys: Readonly<Record<string, string>>;
  }>;
  readonly runs: ReadonlyArray<Parameters<typeof expandRunNames>[0]>;
  readonly singles: ReadonlyArray<{ readonly name: string }>;
  readonly deployments?: ReadonlyArray<{ readonly osimage: string }>;
  readonly nodeSets?: ReadonlyArray<Pick<ImportedNodeSet, "name">>;
}

/**
 * Every resource name the import of one server writes for this cluster (render.ts and
 * render-yaml.ts name resources so), before any suffix.
 */
export function baseResourceNames(cluster: NamedCluster): string[] {
  return [
    ...cluster.site.map(([key]) => `site-${key}`),
    ...cluster.networks.map(([name]) => name),
    ...cluster.osimages.map(([name]) => name),
    ...cluster.policies.map(([priority]) => `policy-${priority}`),
    ...cluster.groups.map(([name]) => name),
    ...cluster.tableRows.map((row) => `${row.table}-${Object.values(row.keys).join("-")}`),
    ...(cluster.nodeSets ?? []).map(nodeSetResourceName),
    ...cluster.runs.flatMap(expandRunNames),
    ...cluster.singles.map((node) => node.name),
    ...(cluster.deployments ?? []).map((deployment) => deploymentName(deployment.osimage)),
  ];
}

/** The resource names that the parts of more than one server would take. */
export function collidingNames(clusters: readonly NamedCluster[]): Set<string> {
  const servers = new Map<string, number>();
  for (const cluster of clusters) {
    for (const name of new Set(baseResourceNames(cluster))) servers.set(name, (servers.get(name) ?? 0) + 1);
  }
  return new Set([...servers].filter(([, count]) => count > 1).map(([name]) => name));
}
