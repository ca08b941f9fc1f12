/**
 * Where an e2e suite sends its requests: a fresh in-process emulator (the default), or a real xCAT
 * management node when `XCAT_E2E_URL` and its credentials are set (docs/real-xcat-e2e.md). A suite
 * asks for a target, points its workspaces at it with {@link E2eTarget.configure}, names every
 * object it creates with {@link E2eTarget.prefix}, and closes it afterwards.
 */

import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { XcatClient } from "../../../src/client";
import {
  EMULATOR_DEFAULT_PASSWORD,
  type EmulatorOptions,
  type RunningEmulator,
  startEmulator,
} from "../../../src/emulator";
import type { PulumiWorkspace } from "./pulumi-workspace";

/** A real management node the suites may use, from the environment. */
export interface RealNode {
  readonly url: string;
  readonly username: string;
  readonly password: string;
  /** Path of the PEM file of the CA that issued the node's server certificate. */
  readonly caCert?: string;
  /** Skip TLS verification (only when no CA certificate is at hand). */
  readonly insecure: boolean;
  /**
   * `xcat:nameServices` for the suites' stacks (XCAT_E2E_NAME_SERVICES, e.g. `none` or `hosts`):
   * a management node without a named answers every makedns with "failed to start named"
   * (seen on a real xCAT 2.19.0), so a node created there fails unless DNS is left out.
   */
  readonly nameServices?: string;
}

/**
 * Reads `XCAT_E2E_URL`, `XCAT_E2E_USERNAME`, `XCAT_E2E_PASSWORD` and `XCAT_E2E_CA_CERT` or
 * `XCAT_E2E_INSECURE=1`. Without `XCAT_E2E_URL` the suites use emulators; with it, a missing
 * setting is an error, so that a half-configured run cannot fall back to an emulator unnoticed.
 */
export function realNodeFromEnv(env: NodeJS.ProcessEnv = process.env): RealNode | undefined {
  const url = env.XCAT_E2E_URL?.trim();
  if (!url) return undefined;
  const missing = ["XCAT_E2E_USERNAME", "XCAT_E2E_PASSWORD"].filter((name) => !env[name]);
  const caCert = env.XCAT_E2E_CA_CERT?.trim() || undefined;
  const insecure = env.XCAT_E2E_INSECURE === "1" || env.XCAT_E2E_INSECURE === "true";
  if (url.startsWith("https:") && caCert === undefined && !insecure) {
    missing.push("XCAT_E2E_CA_CERT (or XCAT_E2E_INSECURE=1)");
  }
  if (missing.length > 0) {
    throw new Error(
      `XCAT_E2E_URL is set (${url}), but ${missing.join(", ")} is not; see docs/real-xcat-e2e.md`,
    );
  }
  if (caCert !== undefined) readFileSync(caCert); // fail here, naming the file, not in every request
  const nameServices = env.XCAT_E2E_NAME_SERVICES?.trim() || undefined;
  return {
    url,
    username: env.XCAT_E2E_USERNAME as string,
    password: env.XCAT_E2E_PASSWORD as string,
    ...(caCert !== undefined ? { caCert } : {}),
    insecure,
    ...(nameServices !== undefined ? { nameServices } : {}),
  };
}

/** The real management node of this run, or undefined when the suites run on emulators. */
export const realNode = realNodeFromEnv();

export interface E2eTarget {
  readonly url: string;
  readonly username: string;
  readonly password: string;
  /** Path of the CA certificate to verify the server with (real nodes over HTTPS). */
  readonly caCert: string | undefined;
  readonly insecure: boolean;
  /** The emulator, when the suite runs on one; undefined on a real management node. */
  readonly emulator: RunningEmulator | undefined;
  /** A client with the target's account, for the test's own reads and hand edits. */
  readonly admin: XcatClient;
  /**
   * Put in front of every object name a test creates: empty on an emulator (fresh and private),
   * unique per run on a real node, so that a test never touches objects it did not create.
   */
  readonly prefix: string;
  /**
   * Sets the connection (xcat:url, credentials, CA certificate) in a workspace's stack config,
   * with `secrets` (the program's own, encrypted) in the same `pulumi config set-all`.
   */
  configure(workspace: PulumiWorkspace, secrets?: Readonly<Record<string, string>>): Promise<void>;
  close(): Promise<void>;
}

/**
 * A fresh emulator started with `emulatorOptions`, or the real node of {@link realNode} (the
 * options then do not apply: a real node has its own account and hardware).
 */
export async function startTarget(emulatorOptions: EmulatorOptions = {}): Promise<E2eTarget> {
  if (realNode) return realTarget(realNode);
  const emulator = await startEmulator(emulatorOptions);
  const password = emulatorOptions.password ?? EMULATOR_DEFAULT_PASSWORD;
  return makeTarget({ url: emulator.url, username: "root", password, insecure: false }, emulator, "");
}

function realTarget(node: RealNode): E2eTarget {
  return makeTarget(node, undefined, `e2e${randomBytes(3).toString("hex")}`);
}

function makeTarget(node: RealNode, emulator: RunningEmulator | undefined, prefix: string): E2eTarget {
  // The tests' witness reads the server every time (no read batching): a snapshot it took before
  // an engine run would answer for objects the run created or deleted since (src/client/read-batcher.ts).
  const admin = new XcatClient({
    url: node.url,
    username: node.username,
    password: node.password,
    batching: false,
    ...(node.caCert !== undefined ? { caCert: node.caCert } : {}),
    ...(node.insecure ? { insecure: true } : {}),
  });
  return {
    url: node.url,
    username: node.username,
    password: node.password,
    caCert: node.caCert,
    insecure: node.insecure,
    emulator,
    admin,
    prefix,
    async configure(workspace, secrets = {}) {
      await workspace.setConfigs(
        {
          "xcat:url": node.url,
          "xcat:username": node.username,
          ...(node.caCert !== undefined ? { "xcat:caCert": node.caCert } : {}),
          ...(node.insecure ? { "xcat:insecure": "true" } : {}),
          ...(node.nameServices !== undefined ? { "xcat:nameServices": node.nameServices } : {}),
        },
        { "xcat:password": node.password, ...secrets },
      );
    },
    async close() {
      await admin.close();
      await emulator?.close();
    },
  };
}

/** The reason a test is skipped on a real management node, as vitest reports it. */
export function onlyOnEmulator(reason: string): string {
  return `runs only on the emulator: ${reason}`;
}

/** The connection options of `pulumi-xcat import` and `review` for the target's CA or insecure flag. */
export function tlsArgs(target: E2eTarget): string[] {
  return [
    ...(target.caCert !== undefined ? ["--ca-cert", target.caCert] : []),
    ...(target.insecure ? ["--insecure"] : []),
  ];
}

/**
 * Every row of the tables xCAT keeps its objects in: two snapshots are equal when nothing was
 * written to them in between. The way to see "no write" on a real node, whose requests the test
 * cannot count.
 */
export async function objectTablesSnapshot(admin: XcatClient): Promise<string> {
  const tables = [
    "nodelist",
    "nodehm",
    "noderes",
    "nodetype",
    "hosts",
    "ipmi",
    "mac",
    "vm",
    "nodegroup",
    "osimage",
    "linuximage",
    "networks",
    "policy",
    "site",
    "routes",
    "postscripts",
    "passwd",
  ];
  const rows: Record<string, unknown> = {};
  for (const table of tables) rows[table] = (await admin.tables.getAllRows(table))[table] ?? [];
  return JSON.stringify(rows, (_key, value) =>
    value && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)))
      : value,
  );
}
