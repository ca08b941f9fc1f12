/**
 * Issue 8, item 8 (`npm run test:soak`, not part of `npm test`): ten rounds of up → refresh →
 * destroy of 100 nodes, recording the peak memory (VmHWM) of the dynamic-provider process of each
 * command. The provider is a fresh process per command, so growth from round to round would mean
 * something accumulates across runs (the state, the serialized providers, the emulator's data)
 * and makes each run heavier. The figures are printed as a table.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../src/emulator";
import { descendantsOf, type PulumiWorkspace } from "../support/pulumi-workspace";
import { REST_PASSWORD, scaleWorkspace } from "./support";

const ROUNDS = 10;
const NODE_COUNT = 100;
const OPERATIONS = ["up", "refresh", "destroy"] as const;
type Operation = (typeof OPERATIONS)[number];

interface Sample {
  readonly round: number;
  readonly operation: Operation;
  /** Peak resident memory of the provider process, MiB. */
  readonly peakMiB: number;
  readonly seconds: number;
}

function statusKiB(pid: number, field: "VmHWM" | "VmRSS"): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(
      readFileSync(`/proc/${pid}/status`, "utf8"),
    );
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

function isDynamicProvider(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("@pulumi/pulumi/cmd/dynamic-provider");
  } catch {
    return false;
  }
}

/** Runs a pulumi command and samples its dynamic-provider process's peak memory until it exits. */
async function measured(
  workspace: PulumiWorkspace,
  args: string[],
): Promise<{ peakMiB: number; seconds: number }> {
  const started = Date.now();
  const command = workspace.start(args);
  let peakKiB = 0;
  let done = false;
  const finished = command.result.finally(() => {
    done = true;
  });
  while (!done) {
    if (command.pid !== undefined) {
      for (const pid of descendantsOf(command.pid).filter(isDynamicProvider)) {
        peakKiB = Math.max(peakKiB, statusKiB(pid, "VmHWM") ?? 0);
      }
    }
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 100));
  }
  await finished;
  return { peakMiB: peakKiB / 1024, seconds: (Date.now() - started) / 1000 };
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

describe(`soak: ${ROUNDS} rounds of up, refresh and destroy of ${NODE_COUNT} nodes`, () => {
  let emulator: RunningEmulator;
  let workspace: PulumiWorkspace;
  const samples: Sample[] = [];

  beforeAll(async () => {
    emulator = await startEmulator({ password: REST_PASSWORD });
    workspace = await scaleWorkspace(emulator, { nodeCount: NODE_COUNT });
  });

  afterAll(async () => {
    await workspace?.dispose();
    await emulator?.close();
  });

  it("keeps the provider's peak memory flat from round to round", async () => {
    const commands: Record<Operation, string[]> = {
      up: ["up", "--yes", "--skip-preview"],
      refresh: ["refresh", "--yes", "--skip-preview"],
      destroy: ["destroy", "--yes", "--skip-preview"],
    };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const operation of OPERATIONS) {
        const { peakMiB, seconds } = await measured(workspace, commands[operation]);
        expect(peakMiB, `no provider process seen during ${operation}`).toBeGreaterThan(0);
        samples.push({ round, operation, peakMiB, seconds });
      }
      expect(emulator.state.listObjects("node")).toEqual([]);
    }

    const rows = Array.from({ length: ROUNDS }, (_, i) => {
      const cells = OPERATIONS.map((operation) => {
        const sample = samples.find((s) => s.round === i + 1 && s.operation === operation);
        return `${sample?.peakMiB.toFixed(1).padStart(6)} MiB ${sample?.seconds.toFixed(1).padStart(5)} s`;
      });
      return `| ${String(i + 1).padStart(5)} | ${cells.join(" | ")} |`;
    });
    console.info(
      [
        `[soak] provider peak memory (VmHWM) and duration per operation, ${NODE_COUNT} nodes:`,
        `| round | ${OPERATIONS.map((operation) => operation.padEnd(18)).join(" | ")} |`,
        ...rows,
      ].join("\n"),
    );

    // Growth beyond noise: the last three rounds' average above the first three's by more than
    // 15% (and at least 8 MiB, so a few pages of allocator noise on a small figure do not count).
    for (const operation of OPERATIONS) {
      const peaks = samples.filter((s) => s.operation === operation).map((s) => s.peakMiB);
      const first = mean(peaks.slice(0, 3));
      const last = mean(peaks.slice(-3));
      expect(last, `${operation}: ${peaks.map((p) => p.toFixed(1)).join(", ")} MiB`).toBeLessThanOrEqual(
        Math.max(first * 1.15, first + 8),
      );
    }
  });
});
