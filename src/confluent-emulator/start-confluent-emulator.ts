/**
 * startConfluentEmulator(): Confluent's HTTP API (release 3.15.6) on a local port, backed by an
 * in-memory (or file) SQLite store, for tests, demos and CI pipelines without a Confluent server.
 */
import { createServer, type Server } from "node:http";
import { CONFLUENT_RELEASE } from "../contract/confluent/attributes";
import { CONFLUENT_API_ROOT } from "../contract/confluent/paths";
import { listen } from "../emulator-kit";
import { createConfluentListener } from "./http/server";
import { SessionTable } from "./http/sessions";
import type { ConfluentEmulatorOptions, ConfluentEmulatorState, RunningConfluentEmulator } from "./options";
import { applySeedCluster } from "./seed-cluster";
import { ConfluentConfig } from "./store/config-store";
import { ConfluentDatabase } from "./store/database";
import { HardwareSimulation, type HardwareState } from "./store/hardware";

export const DEFAULT_DEPLOYMENT_PROFILES = [
  "rocky-9.4-x86_64-default",
  "ubuntu-22.04-x86_64-default",
] as const;

/**
 * Starts an emulated Confluent server.
 *
 * @example
 * const confluent = await startConfluentEmulator();
 * const res = await fetch(`${confluent.url}/nodes/`, {
 *   headers: { Accept: "application/json", Authorization: `Basic ${btoa("root:cluster")}` },
 * });
 * await confluent.close();
 */
export async function startConfluentEmulator(
  options: ConfluentEmulatorOptions = {},
): Promise<RunningConfluentEmulator> {
  const db = new ConfluentDatabase(options.dataFile);
  const config = new ConfluentConfig(db);
  if (db.getMeta("profiles-seeded") === undefined) {
    for (const name of options.deploymentProfiles ?? DEFAULT_DEPLOYMENT_PROFILES) {
      // A profile's info is its profile.yaml plus its name (core.py:213); a seeded one holds a label and kernel arguments.
      db.putProfile(name, { label: name, kernelargs: "quiet" });
    }
    db.setMeta("profiles-seeded", "1");
  }
  if (options.seedCluster !== undefined && db.getMeta("cluster-seeded") === undefined) {
    applySeedCluster(config, options.seedCluster);
    db.setMeta("cluster-seeded", "1");
  }
  const hardware = new HardwareSimulation(config, {
    bootSeconds: options.bootSeconds ?? 30,
    failNodes: new Set(options.failNodes ?? []),
    hangNodes: new Set(options.hangNodes ?? []),
    unreachableBmcs: new Set(options.unreachableBmcs ?? []),
    bmcAccounts: new Map(Object.entries(options.bmcAccounts ?? {})),
    ...(options.now ? { now: options.now } : {}),
  });
  const listener = createConfluentListener({
    config,
    hardware,
    sessions: new SessionTable(),
    user: options.user ?? "root",
    password: options.password ?? "cluster",
    version: options.version ?? CONFLUENT_RELEASE,
  });
  // Every request that arrived, by method and path without the query: tests count the writes an
  // operation sent (an adopting first `up` must send none).
  const received: { method: string; path: string }[] = [];
  const server: Server = createServer((req, res) => {
    received.push({ method: req.method ?? "", path: (req.url ?? "").split("?")[0] ?? "" });
    listener(req, res);
  });
  const listening = await listen(server, { port: options.port, host: options.host ?? "127.0.0.1" }, () =>
    db.close(),
  );
  const state: ConfluentEmulatorState = {
    nodeNames: () => config.nodeNames(),
    groupNames: () => config.groupNames(),
    nodeAttributes: (node) =>
      config.isNode(node) ? Object.fromEntries(config.nodeCurrent(node)) : undefined,
    groupAttributes: (group) =>
      config.isGroup(group) ? Object.fromEntries(config.groupCurrent(group)) : undefined,
    power: (node) => (config.isNode(node) ? (db.hardware<HardwareState>(node)?.power ?? "off") : undefined),
    requests: () => [...received],
  };
  return {
    url: `http://${listening.urlHost}:${listening.port}${CONFLUENT_API_ROOT}`,
    state,
    close: () => listening.close(),
  };
}
