/**
 * Which management server a resource lives on: its backend and the normalized URL of the API.
 * Two settings that name different servers mean the object has to move (be created on the new
 * server and deleted from the old one); two that name the same server are a change of account or
 * transport only. Pulumi asks the question in two places: the native provider's DiffConfig, when
 * a resource's `provider` (or a provider's own url/backend) changes, and a resource's diff, when
 * its `connection` input changes. Credentials, CA and `insecure` never make a move.
 *
 * The comparison is of what the settings say, not of the machines behind them: two URLs naming
 * one server by different host names (an IP and a DNS name) count as two servers. README and
 * docs/confluent.md say so where they describe the move.
 */
import { type BackendName, normalizeUrl, ProviderConfigError, parseBackend } from "./config";
import { isPlainObject, isUnknown } from "./validation";

/** A server named by settings; `unknown` while a preview has not resolved them. */
export type ServerIdentity =
  | { readonly known: true; readonly backend: BackendName; readonly url: string | undefined }
  | { readonly known: false };

/** The settings that choose the server, as a provider's inputs or a `connection` hold them. */
export interface ServerSettings {
  readonly url?: unknown;
  readonly backend?: unknown;
}

/**
 * The server that `settings` name, each missing setting taken from `fallback` (the stack's
 * settings, or for a provider the environment, as Configure takes it). A setting that does not
 * parse is kept as written: CheckConfig and check report it, not this.
 */
export function serverIdentity(settings: ServerSettings, fallback: ServerSettings = {}): ServerIdentity {
  const url = settings.url ?? fallback.url;
  const backendText = settings.backend ?? fallback.backend;
  if (isUnknown(url) || isUnknown(backendText)) return { known: false };
  let backend: BackendName;
  try {
    backend = parseBackend(typeof backendText === "string" ? backendText : undefined, "backend") ?? "xcat";
  } catch (error) {
    if (!(error instanceof ProviderConfigError)) throw error;
    return { known: true, backend: "xcat", url: `invalid backend ${String(backendText)}` };
  }
  if (typeof url !== "string" || url === "") return { known: true, backend, url: undefined };
  try {
    return { known: true, backend, url: normalizeUrl(url, "url", backend) };
  } catch (error) {
    if (!(error instanceof ProviderConfigError)) throw error;
    return { known: true, backend, url };
  }
}

/**
 * The settings whose change moves the object to another server (`url`, `backend`), empty when
 * both name the same one. Unknown settings (a preview of a URL computed from another resource)
 * count as a move: the preview shows the move that `up` may make, and `up`, with the value
 * known, decides again.
 */
export function movedBy(before: ServerIdentity, after: ServerIdentity): Array<"url" | "backend"> {
  if (!before.known || !after.known) return ["url", "backend"];
  const keys: Array<"url" | "backend"> = [];
  if (before.url !== after.url) keys.push("url");
  if (before.backend !== after.backend) keys.push("backend");
  return keys;
}

/**
 * The server a resource's `connection` input names; without one, the stack's (`stack`: the
 * process's settings). A connection that is unknown as a whole (a preview) names an unknown one.
 */
export function serverOfConnection(connection: unknown, stack: ServerSettings = {}): ServerIdentity {
  if (isUnknown(connection)) return { known: false };
  return serverIdentity(isPlainObject(connection) ? connection : {}, stack);
}
