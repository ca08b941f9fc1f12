/**
 * The image roll (a new `provmethod` on every node) through the provider, against an emulator
 * that answers slowly as a management node does (issue #11): the updates merge into a few PUTs
 * and are not read back, and what the provider reports equals what a fresh GET returns, so the
 * rule of known-after-update.ts is checked against the emulator (which follows xCAT's source).
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { XcatClient } from "../../src/client";
import { EMULATOR_DEFAULT_PASSWORD } from "../../src/emulator";
import { type ProviderHarness, providerHarness, runtime } from "./support";

const KIND = "xcat:Node";
const COUNT = 100;
const STEPS = 8; // the engine's default parallelism on 2 CPUs (4 x CPUs)
const names = Array.from({ length: COUNT }, (_, i) => `roll${String(i).padStart(3, "0")}`);

let h: ProviderHarness;
/** Reads straight from the server: no batching, so no snapshot can answer. */
let fresh: XcatClient;

/** Runs `work` for every item, at most `width` at a time, as the engine runs steps. */
async function inSteps<T, R>(
  items: readonly T[],
  width: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index] as T);
      }
    }),
  );
  return results;
}

function node(name: string, provmethod: string, extra: Record<string, string> = {}) {
  return { name, groups: ["rollers", "all"], attributes: { arch: "x86_64", provmethod, ...extra } };
}

async function updated(olds: Record<string, unknown>, news: Record<string, unknown>) {
  const checked = await runtime.check(KIND, olds, news);
  if (checked.failures?.length) throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
  const result = await runtime.update(KIND, String(news.name), olds, checked.inputs);
  return result.outs as Record<string, unknown>;
}

/** What a fresh GET of every node reports, without secrets (as allAttributes holds it). */
async function reportedNow(): Promise<Map<string, Record<string, string>>> {
  return fresh.nodes.getMany(names);
}

beforeAll(async () => {
  h = await providerHarness({ latencyMs: [300, 300] });
  fresh = new XcatClient({
    url: h.emulator.url,
    username: "root",
    password: EMULATOR_DEFAULT_PASSWORD,
    batching: false,
  });
  // Values the nodes inherit, so the report carries more than what the provider sent.
  await h.admin.groups.update("rollers", { netboot: "xnba", os: "rocky8" });
}, 60_000);

afterAll(async () => {
  await fresh?.close();
  await h?.close();
});

describe("image roll through the provider, slow server", () => {
  let outs: Record<string, unknown>[] = [];

  it(`rolls ${COUNT} nodes at ${STEPS} steps in at most 15 requests, reporting what a GET returns`, async () => {
    outs = await inSteps(
      names,
      STEPS,
      async (name) => (await h.createChecked(KIND, node(name, "rocky8-netboot"))).outs,
    );
    const before = h.emulator.stats().total;
    outs = await inSteps(names, STEPS, (name) =>
      updated(outs[names.indexOf(name)] as Record<string, unknown>, node(name, "rocky9-netboot")),
    );
    const requests = h.emulator.stats().total - before;
    expect(requests).toBeLessThanOrEqual(15);

    const reported = await reportedNow();
    names.forEach((name, index) => {
      const all = outs[index]?.allAttributes as Record<string, string>;
      expect(all.provmethod).toBe("rocky9-netboot");
      expect(all.netboot).toBe("xnba"); // inherited, carried over from the recorded report
      expect(all).toEqual(reported.get(name));
    });
  }, 120_000);

  it("reads back the updates the rule does not answer, and reports what a GET returns", async () => {
    const cases: [string, Record<string, unknown>][] = [
      ["a clear", node(names[0] as string, "rocky9-netboot", { arch: "" })],
      [
        "a value the node did not set before (inherited)",
        node(names[1] as string, "rocky9-netboot", { netboot: "grub2" }),
      ],
      ["an only_if condition", node(names[2] as string, "rocky9-netboot", { mgt: "ipmi" })],
      ["a regex template", node(names[3] as string, "rocky9-netboot", { ip: "|\\D+(\\d+)|10.9.0.($1+1)|" })],
      ["postscripts", node(names[4] as string, "rocky9-netboot", { postscripts: "mine" })],
    ];
    const results = await Promise.all(
      cases.map(async ([why, news], index) => {
        const result = await updated(outs[index] as Record<string, unknown>, news);
        return { why, name: String(news.name), result };
      }),
    );
    const reported = await reportedNow();
    for (const { why, name, result } of results) {
      expect(result.allAttributes, why).toEqual(reported.get(name));
    }
    expect(reported.get(names[3] as string)?.ip).toBe("10.9.0.4"); // the template, expanded for roll003
    expect(reported.get(names[4] as string)?.postscripts).toMatch(/,mine$/); // xcatdefaults prepended
  }, 60_000);
});
