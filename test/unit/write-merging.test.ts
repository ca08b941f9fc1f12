/**
 * How merged deletes and updates split their answer per object (issue #11), with fake requests.
 */
import { describe, expect, it } from "vitest";
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
