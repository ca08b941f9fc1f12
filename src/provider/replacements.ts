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

const key = (kind: string, name: string) => `${kind}\u0000${name}`;

/** Records that `name` of `kind` was checked with old inputs: it exists in the state. */
export function noteCheckedAsExisting(kind: string, name: string): void {
  existing.add(key(kind, name));
}

/** Whether a create of `name` of `kind` replaces a resource of the state. */
export function isReplacement(kind: string, name: string): boolean {
  return existing.has(key(kind, name));
}

/** Forgets every record (tests run many programs in one process). */
export function forgetReplacements(): void {
  existing.clear();
}
