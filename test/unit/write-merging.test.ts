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

describe("Coalescer with refill", () => {
  // Fake clocks: the rule is about milliseconds, and a loaded machine must not change the outcome.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setImmediate", "performance"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A coalescer whose requests finish when released, recording the items of each. */
  function recorded(refill: { quietMs: number; maxMs: number }) {
    const runs: Array<{ items: readonly string[]; release: () => void }> = [];
    const queue = new Coalescer<string, string>({
      refill,
      run: (_lane, items) =>
        new Promise((resolve) =>
          runs.push({ items, release: () => resolve(items.map((item) => ({ ok: true, value: item }))) }),
        ),
    });
    return { runs, queue };
  }
  const wait = (ms: number) => vi.advanceTimersByTimeAsync(ms);

  it("waits for the callers of a finished request, so two groups do not take turns", async () => {
    const { runs, queue } = recorded({ quietMs: 40, maxMs: 1_000 });
    // Like an engine with 3 steps: one call first, two more while it is in flight.
    const a = queue.submit("delete", "a");
    await wait(60);
    expect(runs.map((r) => r.items)).toEqual([["a"]]);
    const waiting = [queue.submit("delete", "b"), queue.submit("delete", "c")];
    runs[0]?.release();
    await a;
    // a's caller comes back with its next call a few ms later: it joins b and c, which the plain
    // coalescer would have sent at once, alone.
    await wait(10);
    expect(runs).toHaveLength(1);
    const next = queue.submit("delete", "d");
    // d was the one call the finished request held: the queue goes out at once, not after quietMs.
    await wait(0);
    expect(runs.map((r) => r.items)).toEqual([["a"], ["b", "c", "d"]]);
    runs[1]?.release();
    expect(await Promise.all([...waiting, next])).toEqual(["b", "c", "d"]);
  });

  it("sends after quietMs when fewer callers come back, and never later than maxMs", async () => {
    const quiet = recorded({ quietMs: 30, maxMs: 1_000 });
    const first = quiet.queue.submit("update", "a");
    await wait(50);
    const second = [quiet.queue.submit("update", "b"), quiet.queue.submit("update", "c")];
    quiet.runs[0]?.release();
    await first;
    await wait(29);
    expect(quiet.runs).toHaveLength(1);
    await wait(2); // nobody came back: b and c go out after the quiet time
    expect(quiet.runs.map((r) => r.items)).toEqual([["a"], ["b", "c"]]);
    quiet.runs[1]?.release();
    await Promise.all(second);

    const capped = recorded({ quietMs: 30, maxMs: 80 });
    const calls = [capped.queue.submit("update", "x0")];
    // A steady trickle, never quiet for 30 ms: the cap sends what has come after 80 ms.
    for (let i = 1; i <= 7; i++) {
      await wait(15);
      calls.push(capped.queue.submit("update", `x${i}`));
    }
    expect(capped.runs.map((r) => r.items)).toEqual([["x0", "x1", "x2", "x3", "x4", "x5"]]);
    capped.runs[0]?.release();
    await wait(100);
    capped.runs[1]?.release();
    expect(await Promise.all(calls)).toHaveLength(8);
  });
});
