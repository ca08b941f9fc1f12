/**
 * The management node's side of a review: a client for the stack's xCAT, configured as the
 * provider configures its own (stack config `xcat:*` first, then `XCAT_*` environment variables),
 * and the one read review needs. Reads only: review never writes.
 *
 * The stack config comes from the preview JSON (`config`); a secret there (`xcat:password`) reads
 * `[secret]`, so it is asked of `pulumi config get` in the project directory, the way `pulumi
 * preview` itself found it, and the environment is the fallback.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { XcatClient } from "../../client";
import { clientOptionsFor, type ProviderSettings, settingsFrom } from "../../provider/config";
import { ClusterFacts, tablesFor } from "./cluster-facts";

const run = promisify(execFile);

/** The stack a preview is of: the second part of its resources' URNs (`urn:pulumi:<stack>::<project>::…`). */
export function stackOf(preview: unknown): string | undefined {
  for (const step of (preview as { steps?: Array<{ urn?: unknown }> } | null)?.steps ?? []) {
    const match = typeof step.urn === "string" ? /^urn:pulumi:([^:]+)::/.exec(step.urn) : null;
    if (match?.[1]) return match[1];
  }
  return undefined;
}

/** A stack config value `pulumi preview --json` shows as `[secret]`, decrypted by the Pulumi CLI; undefined when it cannot. */
async function secretConfig(key: string, stack: string | undefined): Promise<string | undefined> {
  try {
    const { stdout } = await run("pulumi", ["config", "get", key, ...(stack ? ["--stack", stack] : [])], {
      encoding: "utf8",
      timeout: 60_000,
    });
    return stdout.replace(/\n$/, "");
  } catch {
    return undefined;
  }
}

/** A client for the management node the preview's stack talks to. Throws a sentence saying what to set. */
export async function clientForPreview(
  preview: unknown,
  env: NodeJS.ProcessEnv = process.env,
): Promise<XcatClient> {
  const config = (preview as { config?: Record<string, unknown> } | null)?.config ?? {};
  return clientForStackConfig(config, stackOf(preview), env);
}

/**
 * A client for a stack's management node from the stack config an engine run shows (`xcat:*`
 * keys, secrets as `[secret]` and asked of `pulumi config get`), then `XCAT_*` variables.
 */
export async function clientForStackConfig(
  config: Readonly<Record<string, unknown>>,
  stack: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<XcatClient> {
  const settings = await settingsForStackConfig(config, stack, env);
  return new XcatClient({ ...clientOptionsFor(settings.connection, settings), batching: settings.batching });
}

/** The settings the stack's default provider has: its config `xcat:*` (secrets asked of `pulumi config get`), then `XCAT_*`. */
export async function settingsForStackConfig(
  config: Readonly<Record<string, unknown>>,
  stack: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ProviderSettings> {
  const values = new Map<string, string | undefined>();
  for (const [key, value] of Object.entries(config)) {
    if (!key.startsWith("xcat:")) continue;
    values.set(key, value === "[secret]" ? await secretConfig(key, stack) : String(value));
  }
  return settingsFrom((key) => values.get(key), env);
}

/**
 * The raw rows of the node tables that hold `attributes` (and nodelist, for membership): one
 * request, however many nodes and groups (xcatws `GET /tables/<tables>/rows`, tabutils.pm
 * getTablesAllRowAttribs at 2.18.2:2853, which reads every row without inheritance).
 */
export async function readClusterFacts(
  client: XcatClient,
  attributes: readonly string[],
): Promise<ClusterFacts> {
  return new ClusterFacts(await client.tables.getAllRows(tablesFor(attributes)));
}
