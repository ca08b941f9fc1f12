/**
 * A Confluent server's base URL, checked and split. Its own module, apart from
 * confluent-client.ts, so that reading provider settings (src/provider/config.ts) does not load
 * the HTTP transport (undici): the native provider answers Configure before it is needed.
 */
import { createXcatError } from "../errors";

/** Base URL parts: a URL without a path is Confluent's web front end path. */
export function confluentBaseUrl(url: string): { origin: string; basePath: string; href: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw usage("url is not a valid absolute URL (expected e.g. https://mgt.example/confluent-api)");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw usage(`url must be http:// or https://, not ${parsed.protocol}//`);
  }
  if (parsed.username !== "" || parsed.password !== "" || parsed.search !== "" || parsed.hash !== "") {
    throw usage("url must hold no credentials, query or fragment");
  }
  const path = parsed.pathname.replace(/\/+$/, "");
  const basePath = path === "" ? "/confluent-api" : path;
  return { origin: parsed.origin, basePath, href: `${parsed.origin}${basePath}` };
}

function usage(message: string) {
  return createXcatError("XCAT_USAGE", `ConfluentClient: ${message}`);
}
