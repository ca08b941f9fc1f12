/**
 * Provider tests against a real xCAT management node: the connection from XCAT_E2E_URL,
 * XCAT_E2E_USERNAME, XCAT_E2E_PASSWORD and XCAT_E2E_CA_CERT (docs/real-xcat-e2e.md), and the
 * provider's process configured for it as a stack's config would. Without XCAT_E2E_URL the tests
 * that use it are skipped.
 */
import { randomBytes } from "node:crypto";
import { XcatClient } from "../../src/client";
import { configureProcess, resetProcessContext } from "../../src/provider/process-context";

const env = process.env;

/** The management node's URL, or undefined when the tests run without one. */
export const realXcatUrl = env.XCAT_E2E_URL;

export const realXcatConnection = {
  url: realXcatUrl ?? "",
  username: env.XCAT_E2E_USERNAME ?? "",
  password: env.XCAT_E2E_PASSWORD ?? "",
  ...(env.XCAT_E2E_CA_CERT ? { caCert: env.XCAT_E2E_CA_CERT } : {}),
};

/** A prefix unique to the run, for every object a test creates (it never touches others). */
export const realXcatPrefix = () => `pt${randomBytes(3).toString("hex")}`;

/** A client of its own for the test's set-up and reads; a real node's requests take seconds. */
export function realXcatAdmin(): XcatClient {
  // The tests' witness of what the node holds reads the node every time: with read batching on,
  // a snapshot of the type it took a moment earlier (kept longer when the node was slow to answer)
  // would answer for nodes another client created since, as "not found" (the client's rule:
  // writes by others show up after at most the snapshot's lifetime, src/client/read-batcher.ts).
  return new XcatClient({ ...realXcatConnection, requestTimeoutMs: 600_000, batching: false });
}

/** Configures the provider's process for the node, with `extra` stack config (xcat:nameServices, …). */
export async function configureForRealXcat(extra: Record<string, string> = {}): Promise<void> {
  await resetProcessContext();
  const config: Record<string, string> = {
    "xcat:url": realXcatConnection.url,
    "xcat:username": realXcatConnection.username,
    "xcat:password": realXcatConnection.password,
    "xcat:requestTimeoutMs": "600000",
    ...(realXcatConnection.caCert ? { "xcat:caCert": realXcatConnection.caCert } : {}),
    ...extra,
  };
  configureProcess((key) => config[key]);
}
