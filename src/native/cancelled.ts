/**
 * How the native provider reports an operation that a Cancel cut off (Ctrl-C or SIGTERM to
 * `pulumi`, which sends Cancel to every provider: pkg/host/host.go:580-600 at v3.259.0). The
 * engine prints the error under the resource; the message still names the resource and the
 * operation, for logs read without the tree, and never lets a cut-off write pass for done:
 * a create, update or delete whose requests were cut off may or may not have been applied.
 */
import { isCancelled } from "../client";

export type EngineOperation = "create" | "read" | "update" | "delete";

/** The first cancelled request in an error's chain of causes. */
function cancelledRequest(
  error: unknown,
): { maybeApplied: boolean | undefined; message: string } | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth += 1) {
    if (isCancelled(current)) return current;
    current = current.cause;
  }
  return undefined;
}

/**
 * The error of an operation that failed after the engine asked to cancel: a new error (a merged
 * request's error is shared by every resource in it) keeping what the engine needs of a partial
 * failure (`id`, `properties`, `reasons`).
 *
 * @example
 * throw cancelledOperation(error, "update", "xcat:index:Node", "r01n02");
 */
export function cancelledOperation(
  error: unknown,
  operation: EngineOperation,
  type: string,
  name: string,
): Error {
  const request = cancelledRequest(error);
  const cause = error instanceof Error ? error.message : String(error);
  const outcome =
    operation === "read"
      ? "A read changes nothing."
      : request?.maybeApplied
        ? "A request was sent and its answer did not arrive: the change may or may not have been applied. " +
          "Run `pulumi refresh` to see what the management node holds before the next `pulumi up`."
        : "Requests sent before the cancel may have been applied: run `pulumi refresh` to see what the " +
          "management node holds before the next `pulumi up`.";
  const message =
    `${operation} of ${type} "${name}" cancelled: the Pulumi engine asked to cancel (Ctrl-C or SIGTERM). ` +
    `${outcome} (${cause})`;
  const partial = error as { id?: string; properties?: unknown; reasons?: string[] };
  return Object.assign(new Error(message, { cause: error }), {
    ...(partial.id ? { id: partial.id, properties: partial.properties, reasons: [message] } : {}),
  });
}
