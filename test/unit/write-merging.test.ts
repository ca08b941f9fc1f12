/**
 * How merged deletes and updates split their answer per object (issue #11), with fake requests.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Coalescer } from "../../src/client/coalescer";
import { deleteMerged, updateMerged } from "../../src/client/write-merging";

class Missing extends Error {
  constructor(readonly names: readonly string[]) {
    super(names.map((name) => `Could not find an object named '${name}' of type 'node'.`).join(" "));
  }
}

/** A fake rmdef: deletes what exists, then reports the missing names as xCAT does (§9.6). */
function fakeStore(existing: string[], broken: string[] = []) {
  const store = new Set(existing);
  const requests: string[][] = [];
  const deleteMany = async (names: readonly string[]) => {
    requests.push([...names]);
    if (names.some((name) => broken.includes(name))) throw new Error(`rmdef failed for ${broken.join(",")}`);
    const missing = names.filter((name) => !store.has(name));
    for (const name of names) store.delete(name);
    if (missing.length > 0) throw new Missing(missing);
  };
  const onlyMissing = (error: unknown) => (error instanceof Missing ? error.names : undefined);
  return { store, requests, parts: { deleteMany, onlyMissing } };
}

describe("deleteMerged", () => {
  it("deletes in one request and reports missing names as missing, not failed", async () => {
    const t = fakeStore(["a", "b", "c"]);
    const outcomes = await deleteMerged(["a", "x", "b", "c", "a"], t.parts);
    expect(outcomes).toEqual([
      { ok: true, value: "deleted" },
      { ok: true, value: "missing" },
      { ok: true, value: "deleted" },
      { ok: true, value: "deleted" },
      { ok: true, value: "deleted" },
    ]);
    expect(t.requests).toEqual([["a", "x", "b", "c"]]);
    expect(t.store.size).toBe(0);
  });

  it("sends each object alone when the merged request fails for another reason, failing only the bad one", async () => {
    const t = fakeStore(["a", "b", "c"], ["b"]);
    const outcomes = await deleteMerged(["a", "b", "c", "gone"], t.parts);
    expect(outcomes.map((o) => (o.ok ? o.value : "failed"))).toEqual([
      "deleted",
      "failed",
      "deleted",
      "missing",
    ]);
    const failed = outcomes[1];
    expect(failed?.ok === false && String(failed.error)).toContain("b");
  });

  it("fails a lone delete with its own error", async () => {
    const t = fakeStore(["a"], ["a"]);
    const [outcome] = await deleteMerged(["a"], t.parts);
    expect(outcome?.ok).toBe(false);
    expect(t.requests).toHaveLength(1);
  });
});

describe("updateMerged", () => {
  it("applies one body to all names in one request, or each alone when that fails", async () => {
    const requests: string[][] = [];
    const updateMany = async (names: readonly string[]) => {
      requests.push([...names]);
      if (names.includes("bad")) throw new Error("bad: groups is not specified");
    };
    expect((await updateMerged(["a", "b"], updateMany)).every((o) => o.ok)).toBe(true);
    const mixed = await updateMerged(["a", "bad", "c"], updateMany);
    expect(mixed.map((o) => o.ok)).toEqual([true, false, true]);
    expect(requests).toEqual([["a", "b"], ["a", "bad", "c"], ["a"], ["bad"], ["c"]]);
  });
});

describe("Coalescer", () => {
  it("sends a lone call at once and queues later calls of the lane behind the one in flight", async () => {
    const runs: Array<{ lane: string; items: readonly string[]; release: () => void }> = [];
    const queue = new Coalescer<string, string>({
      run: (lane, items) =>
        new Promise((resolve) =>
          runs.push({
            lane,
            items,
            release: () => resolve(items.map((item) => ({ ok: true, value: item.toUpperCase() }))),
          }),
        ),
    });
    const turn = () => new Promise((r) => setImmediate(r));
    const first = queue.submit("delete", "a");
    await turn();
    expect(runs.map((r) => r.items)).toEqual([["a"]]);
    const later = [queue.submit("delete", "b"), queue.submit("update x", "c")];
    await turn();
    const more = queue.submit("delete", "d");
    await turn();
    // Another lane is not held back; the same lane waits.
    expect(runs.map((r) => r.items)).toEqual([["a"], ["c"]]);
    runs[0]?.release();
    expect(await first).toBe("A");
    await turn();
    await turn();
    expect(runs.map((r) => r.items)).toEqual([["a"], ["c"], ["b", "d"]]);
    for (const run of runs.slice(1)) run.release();
    expect(await Promise.all([...later, more])).toEqual(["B", "C", "D"]);
  });
});

describe("Coalescer with a hold (issue #25)", () => {
  // Fake clocks: the rule is about milliseconds, and a loaded machine must not change the outcome.
  beforeEach(() => {
    vi.useFakeTimers({
      toFake: ["setTimeout", "clearTimeout", "setImmediate", "clearImmediate", "performance"],
    });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /**
   * A coalescer whose requests finish when released (after `takesMs` of fake time when given),
   * recording the items of each; `callers` plays the provider's gauge of engine calls.
   */
  function recorded(options: { requestMs?: number; maxMs?: number; full?: () => boolean } = {}) {
    const runs: Array<{ items: readonly string[]; release: () => void }> = [];
    const queue = new Coalescer<string, string>({
      hold: { requestMs: () => options.requestMs, nothingMoreCanCome: options.full, maxMs: options.maxMs },
      run: (_lane, items) =>
        new Promise((resolve) =>
          runs.push({ items, release: () => resolve(items.map((item) => ({ ok: true, value: item }))) }),
        ),
    });
    return { runs, queue };
  }
  const wait = (ms: number) => vi.advanceTimersByTimeAsync(ms);
  const sent = (runs: Array<{ items: readonly string[] }>) => runs.map((r) => r.items);

  it("holds calls for at most what one request costs, then sends what has come", async () => {
    const { runs, queue } = recorded({ requestMs: 400 });
    const calls = [queue.submit("update", "a")];
    // The engine hands over its next calls slowly (a checkpoint per step): 90 ms apart.
    for (const name of ["b", "c", "d"]) {
      await wait(90);
      calls.push(queue.submit("update", name));
    }
    await wait(400 - 3 * 90 - 1);
    expect(runs).toHaveLength(0);
    await wait(1);
    expect(sent(runs)).toEqual([["a", "b", "c", "d"]]);
    runs[0]?.release();
    expect(await Promise.all(calls)).toEqual(["a", "b", "c", "d"]);
  });

  it("sends at once when no further call can come, without waiting out the hold", async () => {
    let waiting = 0;
    const { runs, queue } = recorded({ requestMs: 1_000, full: () => waiting >= 3 });
    const submit = (name: string) => {
      waiting += 1;
      return queue.submit("delete", name);
    };
    const calls = [submit("a"), submit("b")];
    await wait(10);
    expect(runs).toHaveLength(0);
    calls.push(submit("c")); // the third and last caller there can be
    await wait(0);
    expect(sent(runs)).toEqual([["a", "b", "c"]]);
    runs[0]?.release();
    await Promise.all(calls);
  });

  it("does not take the callers of an answered batch for callers still waiting (PUTs of 6 and 2 taking turns on a real xCAT)", async () => {
    let underWay = 0;
    const { runs, queue } = recorded({ requestMs: 300, full: () => underWay >= 8 });
    // An engine step: counted while its call runs, as the provider counts the engine's calls; the
    // provider still works on the answer for a few turns of the microtask queue (the report of
    // what xCAT holds, the partial-state bookkeeping) before the call ends.
    const step = async (name: string) => {
      underWay += 1;
      try {
        const value = await queue.submit("update", name);
        for (let i = 0; i < 10; i++) await Promise.resolve();
        return value;
      } finally {
        underWay -= 1;
      }
    };
    const first = ["a", "b", "c", "d", "e", "f"].map(step);
    await wait(300);
    expect(sent(runs)).toEqual([["a", "b", "c", "d", "e", "f"]]);
    const queued = [step("g"), step("h")]; // all 8 steps are under way now
    await wait(200); // the merged request takes 200 ms: later holds last up to that
    runs[0]?.release();
    await Promise.all(first);
    await wait(0);
    // g and h are not sent alone: the six steps just answered come back with their next calls.
    expect(runs).toHaveLength(1);
    const next: Promise<string>[] = [];
    for (const name of ["i", "j", "k", "l", "m", "n"]) {
      await wait(20);
      next.push(step(name));
    }
    await wait(0);
    expect(sent(runs)).toEqual([
      ["a", "b", "c", "d", "e", "f"],
      ["g", "h", "i", "j", "k", "l", "m", "n"],
    ]);
    runs[1]?.release();
    await Promise.all([...queued, ...next]);
  });

  it("bounds the hold by the lane's own measured requests once it has some", async () => {
    const { runs, queue } = recorded({ requestMs: 1_000 });
    const first = queue.submit("update", "a");
    await wait(1_000);
    expect(sent(runs)).toEqual([["a"]]);
    // The merged request takes 120 ms: later holds last at most that long.
    await wait(120);
    runs[0]?.release();
    await first;
    const second = queue.submit("update", "b");
    await wait(119);
    expect(runs).toHaveLength(1);
    await wait(1);
    expect(sent(runs)).toEqual([["a"], ["b"]]);
    runs[1]?.release();
    await second;
  });

  it("queues calls behind the request in flight and holds again for its callers to come back", async () => {
    const { runs, queue } = recorded({ requestMs: 300 });
    const a = queue.submit("delete", "a");
    await wait(300);
    const waiting = [queue.submit("delete", "b"), queue.submit("delete", "c")];
    await wait(300);
    runs[0]?.release();
    await a;
    // a's caller comes back 50 ms later: it joins b and c instead of b and c going out alone.
    await wait(50);
    expect(runs).toHaveLength(1);
    const next = queue.submit("delete", "d");
    await wait(250);
    expect(sent(runs)).toEqual([["a"], ["b", "c", "d"]]);
    runs[1]?.release();
    expect(await Promise.all([...waiting, next])).toEqual(["b", "c", "d"]);
  });

  it("sends calls made together on the next turn of the event loop before anything was measured", async () => {
    const { runs, queue } = recorded({});
    const calls = [queue.submit("delete", "a"), queue.submit("delete", "b")];
    expect(runs).toHaveLength(0);
    await wait(0);
    expect(sent(runs)).toEqual([["a", "b"]]);
    runs[0]?.release();
    await Promise.all(calls);
  });

  it("never holds longer than maxMs, however slow requests are", async () => {
    const { runs, queue } = recorded({ requestMs: 30_000, maxMs: 2_000 });
    const call = queue.submit("update", "a");
    await wait(1_999);
    expect(runs).toHaveLength(0);
    await wait(1);
    expect(sent(runs)).toEqual([["a"]]);
    runs[0]?.release();
    await call;
  });
});
