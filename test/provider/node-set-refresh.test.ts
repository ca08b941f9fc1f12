/**
 * A refresh of a cluster kept as NodeSets (issue #38 item 7: refresh <= 20 requests at 10,000
 * nodes in 250 sets of 40), through the provider runtime as Pulumi's host calls it, against a
 * fresh in-process emulator seeded with 250 racks of 40 nodes. The engine's default parallelism
 * on 2 CPUs is 8 steps: 8 reads under way, each next one starting when one ends. The read
 * batcher merges the sets that meet and buys the whole type once the sets have named an eighth
 * of it (src/client/read-batcher.ts, GROUP_COVERAGE_TO_BUY); a lone set stays one GET of its
 * noderange.
 */

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EMULATOR_DEFAULT_PASSWORD } from "../../src/emulator";
import { reportsOfOutputs } from "../../src/provider/node-set-reports";
import { configureProcess, resetProcessContext } from "../../src/provider/process-context";
import { type ProviderHarness, providerHarness, runtime } from "./support";

const KIND = "xcat:NodeSet";
const RACKS = 250;
const PER_RACK = 40;
/** The engine's default steps at once on 2 CPUs (4 x CPUs). */
const ENGINE_STEPS = 8;

const two = (n: number) => String(n).padStart(2, "0");
const hex = (n: number) => n.toString(16).padStart(2, "0");

/** Rack `r` as the state records it after an up: the seed's nodes (seed-cluster.ts), their mac and bmc as rows. */
function recordedRack(r: number): { id: string; outs: Record<string, unknown> } {
  const rows: Record<string, Record<string, string>> = {};
  for (let n = 1; n <= PER_RACK; n += 1)
    rows[`r${two(r)}n${two(n)}`] = { mac: `52:54:00:${hex(r)}:00:${hex(n)}`, bmc: `10.1.${r}.${n}` };
  return {
    id: `r${two(r)}n[01-${PER_RACK}]`,
    outs: { groups: ["compute", `rack${two(r)}`, "all"], attributes: { mgt: "ipmi" }, rows, adopt: false },
  };
}

let h: ProviderHarness;

beforeAll(async () => {
  h = await providerHarness({ seedCluster: `racks:${RACKS}x${PER_RACK}` });
}, 120_000);

afterAll(async () => {
  await h?.close();
});

// Each test is a provider process of its own, as each `pulumi refresh` is: a new client, nothing
// batched or cached from the test before.
beforeEach(async () => {
  await resetProcessContext();
  const config: Record<string, string> = {
    "xcat:url": h.emulator.url,
    "xcat:username": "root",
    "xcat:password": EMULATOR_DEFAULT_PASSWORD,
  };
  configureProcess((key) => config[key]);
});

/** Requests by route sent while `work` ran, routes with none left out. */
async function counting(work: () => Promise<unknown>): Promise<Record<string, number>> {
  const before = { ...h.emulator.stats().byRoute };
  await work();
  return Object.fromEntries(
    Object.entries(h.emulator.stats().byRoute)
      .map(([route, count]) => [route, count - (before[route] ?? 0)] as const)
      .filter(([, count]) => count > 0),
  );
}

const total = (sent: Record<string, number>) => Object.values(sent).reduce((a, b) => a + b, 0);

describe("refresh of 10,000 nodes as 250 NodeSets of 40 (issue #38 item 7)", () => {
  it("reads a lone set with 1 GET of its noderange", async () => {
    const set = recordedRack(17);
    const held: Record<string, unknown> = {};
    const sent = await counting(async () => {
      const read = await runtime.read(KIND, set.id, set.outs);
      Object.assign(held, reportsOfOutputs(read.props));
    });
    expect(Object.keys(held)).toHaveLength(PER_RACK);
    // The first request of this provider process asks for a token too.
    const { "POST /tokens": _token, ...reads } = sent;
    expect(reads).toEqual({ "GET /nodes/{noderange}": 1 });
  });

  it("reads all 250 sets at the engine's 8 steps with at most 20 requests, each set getting its own nodes' values", async () => {
    await h.admin.nodes.update("r201n07", { bmc: "10.9.201.7" });
    const sets = Array.from({ length: RACKS }, (_, index) => recordedRack(index + 1));
    const reads = new Array<Awaited<ReturnType<typeof runtime.read>>>(RACKS);
    let next = 0;
    const step = async () => {
      while (next < sets.length) {
        const index = next++;
        const set = sets[index] ?? recordedRack(1);
        reads[index] = await runtime.read(KIND, set.id, set.outs);
      }
    };
    const sent = await counting(() => Promise.all(Array.from({ length: ENGINE_STEPS }, step)));
    // Reads only: merged noderange GETs and the whole-type read (GET /nodes/ALLRESOURCES, the same
    // route), at most one size probe (GET /nodes).
    // The new provider process's token request, and reads only.
    expect(Object.keys(sent).filter((route) => !route.startsWith("GET"))).toEqual(["POST /tokens"]);
    expect(sent["GET /nodes"] ?? 0).toBeLessThanOrEqual(1);
    expect(total(sent)).toBeLessThanOrEqual(20);
    reads.forEach((read, index) => {
      const r = index + 1;
      const inputs = read.inputs as { rows: Record<string, Record<string, string>> };
      expect(Object.keys(inputs.rows)).toEqual(Object.keys(recordedRack(r).outs.rows as object));
      const held = reportsOfOutputs(read.props);
      expect(held[`r${two(r)}n01`]?.bmc).toBe(`10.1.${r}.1`);
    });
    // The hand edit shows as that node's own value, not another's.
    const r201 = reads[200]?.inputs as { rows: Record<string, Record<string, string>> };
    expect(r201.rows.r201n07?.bmc).toBe("10.9.201.7");
    expect(r201.rows.r201n08?.bmc).toBe("10.1.201.8");
    console.log(
      `refresh of ${RACKS} sets at ${ENGINE_STEPS} steps: ${total(sent)} requests ${JSON.stringify(sent)}`,
    );
  }, 300_000);

  it("reads the whole type after 32 sets even when every set arrives alone (no merging at all)", async () => {
    // The worst case for merging: one step at a time. The cost rule alone would rent 44 reads of
    // one set (1 + 40 * 0.01 = 1.4 base costs each) before the whole type's 61; the sets' names
    // reach an eighth of the 10,000 nodes at the 32nd set (1,280 names).
    const sent = await counting(async () => {
      for (let r = 1; r <= RACKS; r += 1) {
        const set = recordedRack(r);
        const read = await runtime.read(KIND, set.id, set.outs);
        expect(Object.keys(reportsOfOutputs(read.props))).toHaveLength(PER_RACK);
      }
    });
    // The new provider process's token request, and reads only.
    expect(Object.keys(sent).filter((route) => !route.startsWith("GET"))).toEqual(["POST /tokens"]);
    // 32 GETs of one set each, then one of every node; the snapshot answers the other 218 sets.
    expect(sent["GET /nodes/{noderange}"]).toBe(33);
    expect(sent["GET /nodes"] ?? 0).toBeLessThanOrEqual(1);
    console.log(`refresh of ${RACKS} sets one at a time: ${total(sent)} requests ${JSON.stringify(sent)}`);
  }, 300_000);
});
