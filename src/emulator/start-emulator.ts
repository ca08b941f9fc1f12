/**
 * startEmulator(): an xCAT REST service on a local port, backed by an in-memory (or file)
 * SQLite store, for tests, demos and CI pipelines.
 */
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { listen } from "../emulator-kit";
import { createCostModel } from "./cost/cost-model";
import { EMULATOR_DEFAULT_PASSWORD, EMULATOR_DEFAULT_USER } from "./default-account";
import { FaultPlan } from "./faults";
import { createListener } from "./http/server";
import type { EmulatorOptions, RunningEmulator } from "./options";
import { applyClusterSeed, loadClusterSeed } from "./seed-cluster";
import { createState } from "./state";
import { StatsCounter } from "./stats";
import { XcatStore } from "./store/store";
import { generateSelfSignedCertificate } from "./tls";

/**
 * Starts an emulated xCAT management node serving the REST API.
 *
 * @example
 * const xcat = await startEmulator({ seed: 7 });
 * const res = await fetch(`${xcat.url}/nodes?userName=root&userPW=${EMULATOR_DEFAULT_PASSWORD}`);
 * await xcat.close();
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const seed = options.seed ?? 1;
  const store = new XcatStore({
    ...(options.dataFile ? { dataFile: options.dataFile } : {}),
    user: options.user ?? EMULATOR_DEFAULT_USER,
    password: options.password ?? EMULATOR_DEFAULT_PASSWORD,
    seed,
    ...(options.tokenTtlSeconds !== undefined ? { tokenTtlSeconds: options.tokenTtlSeconds } : {}),
    ...(options.mnInterfaces ? { mnInterfaces: options.mnInterfaces } : {}),
    ...(options.xcatVersion ? { xcatVersion: options.xcatVersion } : {}),
    boot: {
      ...(options.bootSeconds !== undefined ? { bootSeconds: options.bootSeconds } : {}),
      ...(options.failNodes ? { failNodes: options.failNodes } : {}),
      ...(options.hangNodes ? { hangNodes: options.hangNodes } : {}),
    },
  });
  if (options.seedCluster !== undefined && !store.db.first("_emu_meta", { key: "cluster-seeded" })) {
    const seed =
      typeof options.seedCluster === "string" ? loadClusterSeed(options.seedCluster) : options.seedCluster;
    applyClusterSeed(store.db, seed);
    store.db.insert("_emu_meta", { key: "cluster-seeded", value: "1" });
  }
  const faults = new FaultPlan({
    seed,
    ...(options.faultRate !== undefined ? { faultRate: options.faultRate } : {}),
    ...(options.latencyMs ? { latencyMs: options.latencyMs } : {}),
    ...(options.faults?.failNext ? { failNext: options.faults.failNext } : {}),
  });
  const stats = new StatsCounter();
  const cost =
    options.costModel === "xcat"
      ? createCostModel({ mnCpus: options.mnCpus, costScale: options.costScale })
      : undefined;
  const listener = createListener({ store, faults, stats, cost, jsonDecoder: options.jsonDecoder });
  const host = options.host ?? "127.0.0.1";

  let server: Server;
  let caCertPem: string | undefined;
  if (options.https) {
    const pem = options.https === true ? generateSelfSignedCertificate([host]) : options.https;
    if (options.https === true) caCertPem = pem.cert;
    server = createHttpsServer({ cert: pem.cert, key: pem.key }, listener);
  } else {
    server = createHttpServer(listener);
  }
  // Closing releases the SQLite store, which writes through and frees the data file.
  const listening = await listen(server, { port: options.port, host }, () => store.close());
  const url = `${options.https ? "https" : "http"}://${listening.urlHost}:${listening.port}/xcatws`;

  return {
    url,
    state: createState(store),
    stats: () => ({
      ...stats.snapshot(),
      ...(cost ? { mnCpuSeconds: cost.cpuSeconds, mnCpuSecondsNotWaited: cost.cpuSecondsNotWaited } : {}),
    }),
    ...(cost
      ? {
          setCostModelWaits: (waits: boolean) => {
            cost.waits = waits;
          },
        }
      : {}),
    ...(caCertPem ? { caCertPem } : {}),
    close: () => listening.close(),
  };
}
