/**
 * The bar: with the emulator injecting transient faults into 10% of requests (seeded),
 * 500 mixed GET/PUT/DELETE calls complete with no error reaching the caller. The retry policy is
 * the client's default (5 attempts, 250 ms base delay with jitter).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { XcatClient } from "../../src/client";
import type { RunningEmulator } from "../../src/emulator";
import { emulator, PASSWORD, USER } from "./support/emulator";

const CALLS = 500;
const WORKERS = 10;

let emu: RunningEmulator;
let client: XcatClient;

beforeAll(async () => {
  emu = await emulator({ faultRate: 0.1, seed: 42 });
  // One request per call, so that retries can be counted against calls.
  client = new XcatClient({ url: emu.url, username: USER, password: PASSWORD, logger: {}, batching: false });
});

afterAll(async () => {
  await client.close();
  await emu.close();
});

/** One worker's share: cycles of PUT (upsert), GET, GET attrs, PUT, DELETE over its own nodes. */
async function worker(id: number, calls: number): Promise<number> {
  let done = 0;
  let cycle = 0;
  while (done < calls) {
    const node = `soak${id}-${cycle % 4}`;
    const steps: Array<() => Promise<void>> = [
      async () => client.nodes.update(node, { groups: "soak,all", usercomment: `c${cycle}` }),
      async () => {
        expect((await client.nodes.get(node)).usercomment).toBe(`c${cycle}`);
      },
      async () => {
        expect(await client.nodes.getAttrs(node, ["groups"])).toEqual({ groups: "soak,all" });
      },
      async () => client.nodes.update(node, { usercomment: `d${cycle}` }),
      async () => client.nodes.delete(node),
    ];
    for (const step of steps) {
      if (done === calls) break;
      await step();
      done += 1;
    }
    cycle += 1;
  }
  return done;
}

it(`completes ${CALLS} mixed calls at a 10% fault rate without surfacing an error`, {
  timeout: 120_000,
}, async () => {
  const started = Date.now();
  const counts = await Promise.all(Array.from({ length: WORKERS }, (_, id) => worker(id, CALLS / WORKERS)));
  expect(counts.reduce((a, b) => a + b, 0)).toBe(CALLS);

  const metrics = client.metrics();
  const stats = emu.stats();
  console.log(
    `${CALLS} calls at faultRate 0.1 (seed 42): ${metrics.retries} retries, ${stats.faultsInjected} faults injected, ` +
      `${metrics.requests} HTTP requests, ${metrics.tokenRequests} token request(s), ${Date.now() - started} ms`,
  );
  expect(metrics.failures).toBe(0);
  expect(stats.faultsInjected).toBeGreaterThan(20);
  // Every injected fault cost exactly one retry, and nothing else did.
  expect(metrics.retries).toBe(stats.faultsInjected);
  expect(metrics.requests).toBe(CALLS + metrics.retries + metrics.tokenRequests);
});
