/**
 * The cost model's switch between waiting and charging only (`waits`), in modelled time on a
 * clock the test steps by hand: the benchmark charges the 10,000 creates of a first `up` without
 * waiting for them (scripts/bench.mjs --not-waited up), so it must still count every CPU-second,
 * leave requests already waiting to finish as modelled, and leave nothing behind that slows the
 * steps after it. test/emulator/cost-model.test.ts checks the switch on a running emulator.
 */
import { describe, expect, it } from "vitest";
import { createCostModel } from "../../src/emulator/cost/cost-model";
import { PER_REQUEST_CPUS } from "../../src/emulator/cost/cpu-scheduler";
import { type RequestWork, requestCost } from "../../src/emulator/cost/request-cost";
import { SteppedClock } from "../support/stepped-clock";

const GET: RequestWork = {
  method: "GET",
  route: "/nodes/{noderange}",
  named: 1,
  listed: 1,
  returned: 1,
  attributes: undefined,
  succeeded: true,
};
const POST: RequestWork = { ...GET, method: "POST", returned: 0 };
/** What a lone single-node GET takes on the modelled management node, in ms. */
const LONE_GET_MS = (requestCost(GET) / PER_REQUEST_CPUS) * 1000;

/** Charges `work`; `name` goes into `events` when the charge resolves. */
function charge(
  model: ReturnType<typeof createCostModel>,
  work: RequestWork,
  events: string[],
  name: string,
) {
  void model.charge(work).then(() => events.push(name));
}

/** Lets promise callbacks that are already due run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("the cost model's waits switch", () => {
  it("waits by default: a GET resolves only once its modelled time has passed", async () => {
    const clock = new SteppedClock();
    const model = createCostModel({ clock });
    expect(model.waits).toBe(true);
    const events: string[] = [];
    charge(model, GET, events, "get");
    await clock.advanceTo(LONE_GET_MS - 1);
    expect(events).toEqual([]);
    await clock.advanceTo(LONE_GET_MS + 1);
    expect(events).toEqual(["get"]);
    expect(model.cpuSeconds).toBeCloseTo(requestCost(GET), 9);
    expect(model.cpuSecondsNotWaited).toBe(0);
  });

  it("charge only: requests resolve without the clock moving, and every CPU-second is counted", async () => {
    const clock = new SteppedClock();
    const model = createCostModel({ clock });
    model.waits = false;
    const events: string[] = [];
    for (let i = 0; i < 100; i += 1) charge(model, POST, events, `post${i}`);
    await settle();
    expect(events).toHaveLength(100);
    expect(clock.now()).toBe(0);
    // 100 POSTs of one node each: 100 × 0.495 CPU-s, which 2 CPUs would need ~25 s for.
    expect(model.cpuSeconds).toBeCloseTo(100 * requestCost(POST), 9);
    expect(model.cpuSecondsNotWaited).toBeCloseTo(100 * requestCost(POST), 9);
  });

  it("requests charged without waiting leave the CPUs idle for the next step", async () => {
    const clock = new SteppedClock();
    const model = createCostModel({ clock });
    model.waits = false;
    const events: string[] = [];
    for (let i = 0; i < 16; i += 1) charge(model, GET, events, "not waited");
    model.waits = true;
    charge(model, GET, events, "waited");
    await settle();
    // Had the 16 been queued on the CPUs, the 17th would share 2 CPUs with them (~4.3 s).
    await clock.advanceTo(LONE_GET_MS - 1);
    expect(events).toEqual(Array(16).fill("not waited"));
    await clock.advanceTo(LONE_GET_MS + 1);
    expect(events.at(-1)).toBe("waited");
    expect(model.cpuSeconds).toBeCloseTo(17 * requestCost(GET), 9);
    expect(model.cpuSecondsNotWaited).toBeCloseTo(16 * requestCost(GET), 9);
  });

  it("a request already waiting when the switch goes off still takes its modelled time", async () => {
    const clock = new SteppedClock();
    const model = createCostModel({ clock });
    const events: string[] = [];
    charge(model, GET, events, "waiting");
    model.waits = false;
    charge(model, GET, events, "charged");
    await settle();
    expect(events).toEqual(["charged"]);
    await clock.advanceTo(LONE_GET_MS + 1);
    expect(events).toEqual(["charged", "waiting"]);
    expect(model.cpuSecondsNotWaited).toBeCloseTo(requestCost(GET), 9);
  });

  it("charges unscaled CPU-seconds whatever costScale makes the waits", async () => {
    const clock = new SteppedClock();
    const model = createCostModel({ clock, costScale: 0.01 });
    model.waits = false;
    await model.charge(POST);
    expect(model.cpuSecondsNotWaited).toBeCloseTo(requestCost(POST), 9);
  });
});
