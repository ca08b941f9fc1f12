/**
 * The server a TypeScript resource without its own `connection` was made on, kept in its state,
 * and the refusal when the stack's own `xcat:url` / `xcat:backend` now name another one.
 *
 * The dynamic-provider host in @pulumi/pulumi implements no DiffConfig, so a changed stack
 * setting reaches a dynamic resource only as the settings its provider process was configured
 * with. Before this record, the process then read, updated and deleted on the new server as if the
 * objects were there: preview showed no change, refresh dropped every resource (not found on the
 * new server) and destroy deleted same-named objects the stack never made. A move (create on the
 * new server, delete from the old) cannot be offered here: the old server's credentials are not
 * in the state (only the stack config holds them, and it now names the new server). So diff, read
 * and delete refuse, naming the resource and the way to move (docs/configuration.md, "Moving a
 * resource to another server"): the resources' `connection` inputs move them, and the native provider's DiffConfig does
 * for YAML, Python and Go (src/native/diff-config.ts).
 *
 * A resource with its own `connection` records the server that connection names the same way
 * (connectionServerRecord): nothing is refused by it, but it is the only plain record of where
 * such a resource is, the classes passing the whole connection as a secret (review, drift and pins
 * read it, src/cli/stack-resources.ts).
 *
 * Only backend and normalized URL are recorded (server-identity.ts): never credentials, CA or
 * `insecure`; a URL carrying credentials is refused before (xcat-client.ts normalizeBaseUrl).
 */
import { type ServerIdentity, type ServerSettings, serverOfConnection } from "./server-identity";

/** The output holding the record; ignored by diff's change detection (make-provider.ts). */
export const SERVER_OUTPUT = "managementServer";

/** What is stored: the server's backend and URL. */
export interface RecordedServer {
  readonly backend: string;
  readonly url: string | null;
}

/**
 * The record of the server a resource writes to: its own `connection`'s (its missing settings from
 * the stack's), else the stack's. For a resource with a connection it is only for review, drift and
 * pins to find it by, since the connection itself is a secret in the state; nothing is refused by
 * it: a changed `connection` is a move (diff).
 */
export function connectionServerRecord(
  connection: ServerSettings | undefined,
  stack: ServerSettings | undefined,
): RecordedServer | undefined {
  const identity = serverOfConnection(connection, stack ?? {});
  return identity.known ? { backend: identity.backend, url: identity.url ?? null } : undefined;
}

/** The record in a resource's state, undefined for state written before the record existed. */
export function recordedServerOf(outputs: unknown): RecordedServer | undefined {
  const value = (outputs as Record<string, unknown> | undefined)?.[SERVER_OUTPUT];
  if (typeof value !== "object" || value === null) return undefined;
  const { backend, url } = value as Record<string, unknown>;
  if (typeof backend !== "string") return undefined;
  return { backend, url: typeof url === "string" ? url : null };
}

const describe = (server: { backend: string; url: string | null | undefined }) =>
  `${server.url ?? "(no url)"} (${server.backend})`;

/**
 * The refusal when a resource relying on the stack's settings was made on another server than
 * they now name; undefined when they name the same one, the resource has its own `connection`, or
 * the state has no record. `operation` says what was refused ("preview", "refresh", "delete").
 */
export function stackServerMismatch(
  kind: string,
  name: string,
  outputs: unknown,
  stack: ServerSettings | undefined,
  operation: string,
): string | undefined {
  const recorded = recordedServerOf(outputs);
  if (recorded === undefined) return undefined;
  if ((outputs as { connection?: unknown } | undefined)?.connection != null) return undefined;
  const current: ServerIdentity = serverOfConnection(undefined, stack ?? {});
  if (!current.known) return undefined;
  if (current.backend === recorded.backend && (current.url ?? null) === recorded.url) return undefined;
  return (
    `${kind} "${name}": was made on ${describe(recorded)}, but the stack's xcat:url/xcat:backend now ` +
    `name ${describe(current)}. Changing the stack's own server does not move TypeScript resources, ` +
    `so the ${operation} is refused rather than act on the wrong server. To move a rack, set ` +
    `xcat:url/xcat:backend back and give its resources a \`connection\` naming the new server ` +
    "(preview then shows each create there and delete from the old server; docs/configuration.md, " +
    '"Moving a resource to another server"); if the new URL names the same server (another host ' +
    "name or port for it), keep the old URL, as for a provider (docs/confluent.md); to leave the " +
    "objects, pulumi state delete them."
  );
}
