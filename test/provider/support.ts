/**
 * Provider tests call the provider runtime exactly as Pulumi's dynamic-provider host does
 * (configure, check, diff, create, read, update, delete), against a fresh in-process emulator.
 * A separate client makes "hand edits" behind the provider's back.
 */

import { XcatClient } from "../../src/client";
import {
  EMULATOR_DEFAULT_PASSWORD,
  type EmulatorOptions,
  type RunningEmulator,
  startEmulator,
} from "../../src/emulator";
import { configureProcess, resetProcessContext } from "../../src/provider/process-context";
import * as runtime from "../../src/provider/runtime";

export interface ProviderHarness {
  readonly emulator: RunningEmulator;
  /** A client of its own, for hand edits and inspection. */
  readonly admin: XcatClient;
  /** check + create, failing the test on check failures; returns id and outputs. */
  createChecked(
    kind: string,
    news: Record<string, unknown>,
  ): Promise<{ id: string; outs: Record<string, unknown> }>;
  /** check only. */
  check(
    kind: string,
    news: Record<string, unknown>,
  ): Promise<{ inputs?: unknown; failures?: Array<{ property: string; reason: string }> }>;
  /**
   * Starts the provider's process afresh, as the engine does for each command (`pulumi refresh`
   * after an `up`): its clients go, with what they read. Within one process a read may be answered
   * from a snapshot of the type taken a moment before a hand edit (src/client/read-batcher.ts).
   */
  nextEngineCommand(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The xCAT releases the resource suites (node, objects, refused writes) run on: 2.16.5 (its
 * xcatws drops empty values, so clears take another path), 2.17.0 (a failed only_if condition
 * writes the rest) and the newest, the emulator's default. Not 2.18.2: it writes as the newest
 * does for everything these suites touch (docs/xcat-versions.md). The other provider suites
 * (deployments, image rolls: 25 s of the ~55) run on the newest only, as no difference between
 * releases reaches what they send.
 */
export const RESOURCE_TEST_VERSIONS = ["2.16.5", "2.17.0", "2.19"] as const;

export async function providerHarness(
  options: EmulatorOptions = {},
  extraConfig: Readonly<Record<string, string>> = {},
): Promise<ProviderHarness> {
  const emulator = await startEmulator(options);
  await resetProcessContext();
  const config: Record<string, string> = {
    "xcat:url": emulator.url,
    "xcat:username": "root",
    "xcat:password": EMULATOR_DEFAULT_PASSWORD,
    ...extraConfig,
  };
  const configure = () => configureProcess((key) => config[key]);
  configure();
  const admin = new XcatClient({ url: emulator.url, username: "root", password: EMULATOR_DEFAULT_PASSWORD });
  return {
    emulator,
    admin,
    async check(kind, news) {
      return runtime.check(kind, {}, news);
    },
    async createChecked(kind, news) {
      const checked = await runtime.check(kind, {}, news);
      if (checked.failures?.length) throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
      const created = await runtime.create(kind, checked.inputs);
      return { id: created.id, outs: created.outs as Record<string, unknown> };
    },
    async nextEngineCommand() {
      await resetProcessContext();
      configure();
    },
    async close() {
      await admin.close();
      await resetProcessContext();
      await emulator.close();
    },
  };
}

export { runtime };
