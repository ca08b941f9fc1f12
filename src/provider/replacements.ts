/**
 * The resources this provider process has checked as existing ones (a check with old inputs): a
 * create of such a resource is the engine replacing it, never a new resource. The engine checks
 * a resource before it diffs and creates it, in the same provider process: the dynamic provider's
 * one process, or for the native provider the process of the resource's (new) provider.
 *
 * A replacement that creates before it deletes (a move to another server, `pulumi up --replace`)
 * must not take over an object that is already there: when "the new server" is the old one under
 * another URL, or the replacement is on the same server, the delete that follows would remove the
 * very object the create took over (server-identity.ts, docs/confluent.md "Moving a resource
 * within one stack").
 */

const existing = new Set<string>();

const key = (kind: string, name: string, server: string) => `${kind}\u0000${name}\u0000${server}`;

/**
 * Records that `name` of `kind`, to be on `server` (a key naming the server its new inputs
 * name), was checked with old inputs: it exists in the state. The server keeps apart two objects
 * of one name on two servers in one stack.
 */
export function noteCheckedAsExisting(kind: string, name: string, server: string): void {
  existing.add(key(kind, name, server));
}

/** Whether a create of `name` of `kind` on `server` replaces a resource of the state. */
export function isReplacement(kind: string, name: string, server: string): boolean {
  return existing.has(key(kind, name, server));
}

/** Forgets every record (tests run many programs in one process). */
export function forgetReplacements(): void {
  existing.clear();
}
