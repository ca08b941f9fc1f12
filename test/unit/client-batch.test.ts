/**
 * The read batcher's logic with a fake fetch: merging, chunking, missing names, the ALLRESOURCES
 * snapshot, and the freshness rule against writes (issue 7); group reads, a NodeSet's nodes read
 * as one (issue #38).
 */
import { describe, expect, it } from "vitest";
import { ReadBatcher, type ReadBatcherTuning } from "../../src/client/read-batcher";
import { WriteLog, writeScope } from "../../src/client/read-batcher-writes";

type Obj = { name: string; version: number };

/** A fake type of objects whose fetches are recorded and resolved by hand. */
function fakeType(tuning: ReadBatcherTuning = {}, typeSize?: number) {
  let clock = 1_000;
  const store = new Map<string, number>();
  const fetches: Array<{ kind: "many" | "all" | "group"; names: readonly string[]; release: () => void }> =
    [];
  const writes = new WriteLog(() => clock);
  const snapshot = (names: readonly string[] | undefined) => {
    const result = new Map<string, Obj>();
    for (const [name, version] of store) {
      if (names === undefined || names.includes(name)) result.set(name, { name, version });
    }
    return result;
  };
  const deferred = (kind: "many" | "all" | "group", names: readonly string[] | undefined) =>
    new Promise<Map<string, Obj>>((resolve) => {
      // The data is taken when the request "reaches the server", i.e. when it starts.
      const data = snapshot(names);
      fetches.push({ kind, names: names ?? [], release: () => resolve(data) });
    });
  const batcher = new ReadBatcher<Obj>({
    type: "node",
    writes,
    now: () => clock,
    fetchMany: (names) => deferred("many", names),
    fetchAll: () => deferred("all", undefined),
    fetchGroup: (names) => deferred("group", names),
    ...(typeSize === undefined ? {} : { countAll: async () => typeSize }),
    ...tuning,
  });
  return {
    batcher,
    store,
    fetches,
    writes,
    tick: (ms: number) => {
      clock += ms;
    },
    /** Resolves fetches until none is left, letting the batches queued behind them go out. */
    async releaseAll() {
      for (let round = 0; round < 10; round += 1) {
        await new Promise((r) => setImmediate(r));
        for (const f of fetches.splice(0)) f.release();
        await new Promise((r) => setImmediate(r));
      }
    },
    write(name: string) {
      store.set(name, (store.get(name) ?? 0) + 1);
      writes.record(writeScope("nodes.update", { noderange: name }));
    },
    /** A write to a noderange (`r01n[01-40]`), which may have changed any node. */
    writeRange(names: readonly string[]) {
      for (const name of names) store.set(name, (store.get(name) ?? 0) + 1);
      writes.record(writeScope("nodes.update", { noderange: "r01n%5B01-40%5D" }));
    },
  };
}

/** The names of rack `rack` (1-based) of `size` nodes: r001n01 ... */
function rackNames(rack: number, size = 40): string[] {
  return Array.from(
    { length: size },
    (_, n) => `r${String(rack).padStart(3, "0")}n${String(n + 1).padStart(2, "0")}`,
  );
}

describe("ReadBatcher", () => {
  it("merges reads that arrive together into one request, each caller getting its object", async () => {
    const t = fakeType();
    for (const name of ["a", "b", "c"]) t.store.set(name, 1);
    const reads = ["a", "b", "c", "a"].map((name) => t.batcher.get(name));
    await new Promise((r) => setImmediate(r));
    expect(t.fetches.map((f) => [f.kind, [...f.names]])).toEqual([["many", ["a", "b", "c"]]]);
    await t.releaseAll();
    expect((await Promise.all(reads)).map((o) => o?.name)).toEqual(["a", "b", "c", "a"]);
  });

  it("splits a batch at maxBatchSize; full batches go at once, the rest waits for the one in flight", async () => {
    const t = fakeType({ maxBatchSize: 2, allResourcesThreshold: 1_000 });
    const reads = ["a", "b", "c", "d", "e"].map((name) => t.batcher.get(name));
    await new Promise((r) => setImmediate(r));
    expect(t.fetches.map((f) => f.names.length)).toEqual([2, 2]);
    await t.releaseAll();
    await Promise.all(reads);
    expect(t.batcher.stats.batches).toBe(3);
  });

  it("answers a missing object with undefined without failing the others", async () => {
    const t = fakeType();
    t.store.set("a", 1);
    const [a, gone] = [t.batcher.get("a"), t.batcher.get("gone")];
    await t.releaseAll();
    expect(await a).toEqual({ name: "a", version: 1 });
    expect(await gone).toBeUndefined();
  });

  it("gives every waiter of a failed batch the error", async () => {
    const writes = new WriteLog(() => 0);
    const batcher = new ReadBatcher<Obj>({
      type: "node",
      writes,
      now: () => 0,
      fetchMany: async () => {
        throw new Error("boom");
      },
      fetchAll: async () => new Map(),
    });
    await expect(Promise.all([batcher.get("a"), batcher.get("b")])).rejects.toThrow("boom");
  });

  it("switches to one ALLRESOURCES read when many cold reads come in, and serves later reads from it", async () => {
    const t = fakeType({ allResourcesThreshold: 4 });
    for (let i = 0; i < 50; i++) t.store.set(`n${i}`, 1);
    const first = [0, 1, 2].map((i) => t.batcher.get(`n${i}`));
    await t.releaseAll();
    await Promise.all(first);
    const fourth = t.batcher.get("n3");
    await new Promise((r) => setImmediate(r));
    expect(t.fetches.map((f) => f.kind)).toEqual(["all"]);
    await t.releaseAll();
    expect(await fourth).toEqual({ name: "n3", version: 1 });
    // The rest come from the snapshot: no request at all.
    const rest = await Promise.all(Array.from({ length: 40 }, (_, i) => t.batcher.get(`n${i + 4}`)));
    expect(rest.every((o) => o?.version === 1)).toBe(true);
    expect(t.fetches).toHaveLength(0);
    expect(await t.batcher.get("absent")).toBeUndefined();
    expect(t.batcher.stats).toMatchObject({ allResources: 1, batches: 1 });
  });

  it("lets a snapshot expire after cacheTtlMs", async () => {
    const t = fakeType({ allResourcesThreshold: 2, cacheTtlMs: 1_000, rateWindowMs: 500 });
    t.store.set("a", 1);
    t.store.set("b", 1);
    const first = [t.batcher.get("a"), t.batcher.get("b")];
    await t.releaseAll();
    await Promise.all(first);
    t.tick(1_001);
    t.store.set("a", 2); // changed by someone else
    const later = t.batcher.get("a");
    await t.releaseAll();
    expect(await later).toEqual({ name: "a", version: 2 });
  });

  it("renews a snapshot in the background while reads keep coming, without making them wait", async () => {
    const t = fakeType({ allResourcesThreshold: 2, cacheTtlMs: 1_000, rateWindowMs: 2_000 });
    t.store.set("a", 1);
    t.store.set("b", 1);
    const first = [t.batcher.get("a"), t.batcher.get("b")];
    await t.releaseAll();
    await Promise.all(first);
    t.tick(600);
    t.store.set("a", 2);
    // Still answered from the first snapshot, at once, while a new one is fetched.
    expect(await t.batcher.get("a")).toEqual({ name: "a", version: 1 });
    expect(t.fetches.map((f) => f.kind)).toEqual(["all"]);
    await t.releaseAll();
    expect(await t.batcher.get("a")).toEqual({ name: "a", version: 2 });
    expect(t.batcher.stats.allResources).toBe(2);
  });

  it("never answers a read with data older than a write that finished before it", async () => {
    const t = fakeType({ allResourcesThreshold: 2 });
    t.store.set("a", 1);
    t.store.set("b", 1);
    const first = [t.batcher.get("a"), t.batcher.get("b")];
    await t.releaseAll();
    await Promise.all(first); // a snapshot holding a@1 and b@1 is now cached
    t.write("a");
    const afterWrite = t.batcher.get("a");
    await new Promise((r) => setImmediate(r));
    expect(t.fetches.map((f) => f.kind)).toEqual(["many"]);
    await t.releaseAll();
    expect(await afterWrite).toEqual({ name: "a", version: 2 });
    // b was not written: the snapshot still answers it.
    expect(await t.batcher.get("b")).toEqual({ name: "b", version: 1 });
  });

  it("does not hand a fetch started before a write to a read asked after it", async () => {
    const t = fakeType({ allResourcesThreshold: 1_000 });
    t.store.set("a", 1);
    const before = t.batcher.get("a");
    await new Promise((r) => setImmediate(r)); // the batch for `before` is under way, holding a@1
    t.write("a");
    const after = t.batcher.get("a");
    await t.releaseAll();
    expect(await before).toEqual({ name: "a", version: 1 });
    expect(await after).toEqual({ name: "a", version: 2 });
  });

  it("does not count reads right after writes toward ALLRESOURCES (read-after-create during up)", async () => {
    const t = fakeType({ allResourcesThreshold: 3 });
    const reads: Promise<unknown>[] = [];
    for (let i = 0; i < 10; i++) {
      t.write(`n${i}`);
      reads.push(t.batcher.get(`n${i}`));
    }
    await t.releaseAll();
    await Promise.all(reads);
    expect(t.batcher.stats.allResources).toBe(0);
  });
});

describe("ReadBatcher against a slow server", () => {
  it("queues reads behind the read in flight and sends them as one request when it is answered", async () => {
    const t = fakeType({ allResourcesThreshold: 1_000 });
    for (const name of ["a", "b", "c", "d"]) t.store.set(name, 1);
    const first = t.batcher.get("a");
    await new Promise((r) => setImmediate(r));
    expect(t.fetches.map((f) => f.names)).toEqual([["a"]]);
    // Reads arriving over several turns while "a" is being answered wait for it.
    const later = [];
    for (const name of ["b", "c", "d"]) {
      later.push(t.batcher.get(name));
      await new Promise((r) => setImmediate(r));
    }
    expect(t.fetches).toHaveLength(1);
    t.fetches.splice(0)[0]?.release();
    await first;
    await new Promise((r) => setImmediate(r));
    expect(t.fetches.map((f) => f.names)).toEqual([["b", "c", "d"]]);
    await t.releaseAll();
    expect((await Promise.all(later)).map((o) => o?.version)).toEqual([1, 1, 1]);
  });

  /**
   * A refresh of a type of `size` objects at the engine's default 8 steps: rounds of 8 reads, 400 ms
   * apart, until the batcher reads the whole type (at most 10 rounds).
   */
  async function refreshInRounds(size: number, firstRounds: readonly number[] = []) {
    const t = fakeType({ allResourcesThreshold: 1_000 }, size);
    for (let i = 0; i < size; i += 1) t.store.set(`n${i}`, 1);
    let next = 0;
    for (let i = 0; i < 10 && t.batcher.stats.allResources === 0; i += 1) {
      const reads = Array.from({ length: firstRounds[i] ?? 8 }, () => t.batcher.get(`n${next++}`));
      await t.releaseAll();
      await Promise.all(reads);
      t.tick(400);
    }
    return t;
  }

  it("reads the whole type once the cold batches cost what that read costs, learning its size from one probe", async () => {
    // 1,000 objects: reading them all costs 1 + 1000 * 0.006 = 7 base costs; batches of 8 cost 1.08 each.
    const t = await refreshInRounds(1_000);
    expect(t.batcher.stats.sizeProbes).toBe(1);
    expect(t.batcher.stats.allResources).toBe(1);
    expect(t.batcher.stats.batches).toBeLessThanOrEqual(8);
    const batches = t.batcher.stats.batches;
    // The rest of the refresh comes from the snapshot.
    const rest = Array.from({ length: 900 }, (_, i) => t.batcher.get(`n${100 + i}`));
    await t.releaseAll();
    expect((await Promise.all(rest)).every((o) => o?.version === 1)).toBe(true);
    expect(t.batcher.stats.batches).toBe(batches);
  });

  it("switches a refresh of 200 nodes at the engine's default 8 steps to the whole type after 2 batches (issue #25)", async () => {
    // 200 objects: reading them all costs 1 + 200 * 0.006 = 2.2 base costs; two batches of 8 cost 2.16.
    const t = await refreshInRounds(200);
    expect(t.batcher.stats).toMatchObject({ sizeProbes: 1, allResources: 1 });
    // Two batches before the probe, and at most one more while its answer was on its way.
    expect(t.batcher.stats.batches).toBeLessThanOrEqual(3);
  });

  it("reads the whole type after batches of 1 and 7 names, as a real xCAT 2.19's refresh of 200 nodes began (issue #25)", async () => {
    // The engine's first reads arrive while the stack's other resources are read: 1 node, then 7.
    const t = await refreshInRounds(200, [1, 7]);
    expect(t.batcher.stats).toMatchObject({ sizeProbes: 1, allResources: 1 });
    // 1 and 7, then one batch while the probe's answer was on its way: 5 node requests in all.
    expect(t.batcher.stats.batches).toBeLessThanOrEqual(3);
  });

  it("does not ask the size of the type for fewer reads than a batch holds, spread over several batches", async () => {
    const t = fakeType({ allResourcesThreshold: 1_000 }, 5_000);
    for (let i = 0; i < 5_000; i += 1) t.store.set(`n${i}`, 1);
    for (const names of [["n1", "n2", "n3"], ["n4", "n5"], ["n6", "n7"], ["n8"]]) {
      const reads = names.map((name) => t.batcher.get(name));
      await t.releaseAll();
      await Promise.all(reads);
      t.tick(400);
    }
    expect(t.batcher.stats).toMatchObject({ batches: 4, allResources: 0, sizeProbes: 0 });
  });

  it("never reads a large type for a stack that reads a few of its objects", async () => {
    const t = fakeType({ allResourcesThreshold: 1_000 }, 5_000);
    for (let i = 0; i < 5_000; i += 1) t.store.set(`n${i}`, 1);
    const reads = ["n1", "n2", "n3"].map((name) => t.batcher.get(name));
    await t.releaseAll();
    await Promise.all(reads);
    expect(t.batcher.stats).toMatchObject({ batches: 1, allResources: 0, sizeProbes: 0 });
  });
});

describe("writeScope", () => {
  it("names plain objects, widens ranges and groups, and treats other writes as touching everything", () => {
    expect(writeScope("nodes.update", { noderange: "n01,cn-002" })).toEqual({
      kind: "objects",
      types: ["group"],
      names: { node: ["n01", "cn-002"] },
    });
    expect(writeScope("nodes.setPower", { noderange: "n01-n05" })).toMatchObject({
      types: ["node", "group"],
    });
    expect(writeScope("nodes.update", { noderange: "n%5B1-3%5D" })).toMatchObject({
      types: ["node", "group"],
    });
    expect(writeScope("groups.update", { groupname: "compute" })).toMatchObject({ types: ["group", "node"] });
    expect(writeScope("osimages.update", { imgname: "img" })).toMatchObject({ names: { osimage: ["img"] } });
    expect(writeScope("tables.putRows", { tables: "nodelist" })).toEqual({ kind: "all" });
    expect(writeScope("tokens.create", undefined)).toEqual({ kind: "none" });
  });

  it("orders writes by sequence number", () => {
    const log = new WriteLog(() => 5);
    log.record(writeScope("nodes.update", { noderange: "a" }));
    log.record(writeScope("groups.update", { groupname: "g" }));
    expect(log.lastWrite("node", "a").seq).toBe(2);
    expect(log.lastWrite("osimage", "x").seq).toBe(0);
    log.record({ kind: "all" });
    expect(log.lastWrite("osimage", "x").seq).toBe(3);
  });
});

describe("ReadBatcher group reads (a NodeSet's nodes, issue #38)", () => {
  /** A type of `racks` racks of 40 objects, each at version 1. */
  function racksType(racks: number, tuning: ReadBatcherTuning = {}) {
    const t = fakeType(tuning, racks * 40);
    for (let rack = 1; rack <= racks; rack += 1) for (const name of rackNames(rack)) t.store.set(name, 1);
    return t;
  }

  it("reads a lone group of 40 cold names with one read of those names, never the whole type, whatever the per-name rate trigger says", async () => {
    // 32 cold reads within 2 s switch single reads to ALLRESOURCES: a group counts once.
    const t = racksType(250);
    const rack = t.batcher.getGroup(rackNames(7));
    await new Promise((r) => setImmediate(r));
    expect(t.fetches.map((f) => [f.kind, f.names.length])).toEqual([["group", 40]]);
    await t.releaseAll();
    const found = await rack;
    expect([...found.keys()]).toEqual(rackNames(7));
    expect(t.batcher.stats).toMatchObject({ groupReads: 1, groupBatches: 1, allResources: 0, sizeProbes: 0 });
  });

  it("merges groups asked for together into one read, each caller getting only its own names", async () => {
    const t = racksType(10);
    const reads = [1, 2, 3, 4, 5].map((rack) => t.batcher.getGroup(rackNames(rack)));
    await new Promise((r) => setImmediate(r));
    expect(t.fetches).toHaveLength(1);
    expect(new Set(t.fetches[0]?.names)).toEqual(new Set([1, 2, 3, 4, 5].flatMap((rack) => rackNames(rack))));
    await t.releaseAll();
    const found = await Promise.all(reads);
    found.forEach((map, index) => {
      expect([...map.keys()]).toEqual(rackNames(index + 1));
    });
  });

  it("queues groups behind the group read in flight and sends them as one read when it is answered", async () => {
    const t = racksType(10);
    const first = t.batcher.getGroup(rackNames(1));
    await new Promise((r) => setImmediate(r));
    const later = [];
    for (const rack of [2, 3, 4]) {
      later.push(t.batcher.getGroup(rackNames(rack)));
      await new Promise((r) => setImmediate(r));
    }
    expect(t.fetches).toHaveLength(1);
    t.fetches.splice(0)[0]?.release();
    await first;
    await new Promise((r) => setImmediate(r));
    expect(t.fetches.map((f) => f.names.length)).toEqual([120]);
    await t.releaseAll();
    expect((await Promise.all(later)).map((map) => map.size)).toEqual([40, 40, 40]);
  });

  it("leaves out the names that do not exist", async () => {
    const t = racksType(1);
    t.store.delete("r001n05");
    const read = t.batcher.getGroup(rackNames(1));
    await t.releaseAll();
    const found = await read;
    expect(found.size).toBe(39);
    expect(found.has("r001n05")).toBe(false);
  });

  it("ends a refresh of 250 groups of 40 at the engine's 8 steps in one read of the whole type once the groups named an eighth of it", async () => {
    // 10,000 objects: the cost rule alone waits for ~15 batches of 8 racks (1 + 320 * 0.01 = 4.2
    // base costs each against 1 + 10,000 * 0.006 = 61); groups buy at 1,250 names, the 4th batch.
    const t = racksType(250);
    let rack = 1;
    const answered: number[] = [];
    const sent = () => t.batcher.stats.groupBatches + t.batcher.stats.allResources;
    while (rack <= 250) {
      const before = sent();
      const reads = Array.from({ length: Math.min(8, 251 - rack) }, () =>
        t.batcher.getGroup(rackNames(rack++)),
      );
      await t.releaseAll();
      for (const map of await Promise.all(reads)) answered.push(map.size);
      // A round answered by the server takes a request's time; one answered from the snapshot, none.
      if (sent() > before) t.tick(400);
    }
    expect(answered).toEqual(Array.from({ length: 250 }, () => 40));
    expect(t.batcher.stats).toMatchObject({ sizeProbes: 1, allResources: 1 });
    // 3 batches of 8 racks (960 names), a 4th reaching 1,280: the next round buys.
    expect(t.batcher.stats.groupBatches).toBe(4);
  }, 60_000);

  it("buys at an eighth of the type named by groups whatever the batches hold: 1 rack per read", async () => {
    const t = racksType(250);
    let rack = 1;
    const sent = () => t.batcher.stats.groupBatches + t.batcher.stats.allResources;
    while (rack <= 250) {
      const before = sent();
      const read = t.batcher.getGroup(rackNames(rack++));
      await t.releaseAll();
      expect((await read).size).toBe(40);
      if (sent() > before) t.tick(400);
    }
    // 1,250 names are 31.25 racks: the 32nd rack's read is the last by name.
    expect(t.batcher.stats).toMatchObject({ groupBatches: 32, sizeProbes: 1, allResources: 1 });
  }, 60_000);

  it("never buys the whole type for groups that name less than an eighth of it (30 racks of 250)", async () => {
    const t = racksType(250);
    for (let rack = 1; rack <= 30; ) {
      const reads = Array.from({ length: 3 }, () => t.batcher.getGroup(rackNames(rack++)));
      await t.releaseAll();
      await Promise.all(reads);
      t.tick(400);
    }
    expect(t.batcher.stats).toMatchObject({ groupBatches: 10, allResources: 0 });
  }, 60_000);

  it("never answers a group from a read older than a write to one of its names", async () => {
    const t = racksType(40);
    // Fill a snapshot of the whole type with a refresh.
    for (let rack = 1; rack <= 40 && t.batcher.stats.allResources === 0; ) {
      const reads = Array.from({ length: 8 }, () => t.batcher.getGroup(rackNames(rack++)));
      await t.releaseAll();
      await Promise.all(reads);
    }
    expect(t.batcher.stats.allResources).toBe(1);
    t.write("r039n17");
    const afterWrite = t.batcher.getGroup(rackNames(39));
    await new Promise((r) => setImmediate(r));
    expect(t.fetches.map((f) => f.kind)).toEqual(["group"]);
    await t.releaseAll();
    expect((await afterWrite).get("r039n17")?.version).toBe(2);
    // A group none of whose names was written still comes from the snapshot.
    expect((await t.batcher.getGroup(rackNames(40))).get("r040n01")?.version).toBe(1);
    expect(t.fetches).toHaveLength(0);
  });

  it("does not read the whole type for groups read between this client's writes to it (an up that checks each set before creating it)", async () => {
    const t = racksType(250);
    for (let round = 0; round < 40; round += 1) {
      const reads = Array.from({ length: 8 }, (_, i) => t.batcher.getGroup(rackNames(round * 6 + i + 1)));
      await t.releaseAll();
      await Promise.all(reads);
      // Each round writes to noderanges (name services of the sets just created), and on a slow
      // server the next sets' reads come more than the rate window later: they count as cold.
      t.writeRange(rackNames(round + 1));
      t.tick(3_000);
    }
    expect(t.batcher.stats.allResources).toBe(0);
    expect(t.batcher.stats.groupBatches).toBe(40);
  }, 60_000);
});
