/**
 * The error of a request that the client's `signal` (XcatClientOptions.signal, and the Confluent
 * client's) cut off, for both clients: a write sent before the cut may have been carried out.
 */
import { createXcatError, type XcatError } from "./errors";

/** What a cut-off request may have done. */
export type CutOff = "not sent" | "changes nothing" | "maybe applied";

const CUT_OFF_TEXT: Readonly<Record<CutOff, string>> = {
  "not sent": "it was not sent",
  "changes nothing": "it changes nothing on the server",
  "maybe applied": "it was sent and its answer did not arrive, so the server may or may not have applied it",
};

/**
 * The XcatCancelledError of a request; `maybeApplied` when a write was sent and its answer never
 * came: only reading the object tells what the server did.
 *
 * @example
 * throw cancelledError(signal, { method: "PUT", display: "/nodes/n1", url }, "maybe applied");
 */
export function cancelledError(
  cancel: AbortSignal,
  request: { method: string; display: string; url: string },
  outcome: CutOff,
): XcatError {
  const reason =
    cancel.reason instanceof Error ? cancel.reason.message : String(cancel.reason ?? "cancelled");
  return createXcatError(
    "XCAT_CANCELLED",
    `${request.method} ${request.display} cancelled (${reason}): ${CUT_OFF_TEXT[outcome]}`,
    { method: request.method, url: request.url, maybeApplied: outcome === "maybe applied" },
  );
}
