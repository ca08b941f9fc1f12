/**
 * An xCAT server's base URL, checked and split. Its own module, apart from xcat-client.ts, so that
 * reading provider settings (src/provider/config.ts) does not load the HTTP transport (undici)
 * and the response schemas (zod): the native provider answers Configure before either is needed.
 */
import { createXcatError } from "./errors";

/**
 * The base URL split into origin and path; a URL with no path gets /xcatws.
 *
 * @example
 * ```ts
 * normalizeBaseUrl("https://mn.example").href; // "https://mn.example/xcatws"
 * ```
 */
export function normalizeBaseUrl(url: string): { origin: string; basePath: string; href: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw usage("url is not a valid absolute URL (expected e.g. https://mn.example/xcatws)");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw usage(`url must be http:// or https://, not ${parsed.protocol}//`);
  }
  if (parsed.username !== "" || parsed.password !== "") {
    throw usage("url must not contain credentials; pass username and password (or token) as options");
  }
  if (parsed.search !== "" || parsed.hash !== "")
    throw usage("url must not contain a query string or fragment");
  const path = parsed.pathname.replace(/\/+$/, "");
  const basePath = path === "" ? "/xcatws" : path;
  return { origin: parsed.origin, basePath, href: `${parsed.origin}${basePath}` };
}

function usage(message: string) {
  return createXcatError("XCAT_USAGE", message);
}
