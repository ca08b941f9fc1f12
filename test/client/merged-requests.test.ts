/**
 * Merged requests against an emulator that answers slowly, as a management node does (issue #11,
 * xcat-behavior.md section 10: ~0.3 s a request). Calls that arrive while a request of their kind
 * is being answered go out together: concurrent reads, deletes of one type (a missing one among
 * them is a successful delete, §9.6) and updates with equal bodies; one bad object fails only its
 * own caller.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isNotFound, type XcatClient } from "../../src/client";
import type { RunningEmulator } from "../../src/emulator";
import { connect, emulator } from "./support/emulator";

const COUNT = 100;
const names = (prefix: string) =>
  Array.from({ length: COUNT }, (_, i) => `${prefix}${String(i).padStart(3, "0")}`);

let emu: RunningEmulator;
let client: XcatClient;

beforeAll(async () => {
  emu = await emulator({ latencyMs: [300, 300] });
  client = connect(emu, { maxConcurrency: 8 });
  const setup = connect(emu, { batching: false, maxConcurrency: 200 });
  await Promise.all(
    [...names("rd"), ...names("dl"), ...names("up")].map((name) =>
      setup.nodes.create(name, { groups: "merged,all", usercomment: name }),
    ),
  );
  await setup.nodes.get("rd000"); // the token is in place before anything is counted
  await client.nodes.list();
  await setup.close();
  // 300 creates at 0.3 s each through 200 connections: seconds on a quiet machine, more on a busy one.
}, 60_000);

afterAll(async () => {
  await client.close();
  await emu.close();
});

async function requestsDuring(work: () => Promise<unknown>): Promise<number> {
  const before = emu.stats().total;
  await work();
  return emu.stats().total - before;
}

describe("merged requests against a slow server", () => {
  it(`answers ${COUNT} concurrent gets in at most 3 requests`, async () => {
    let found: Record<string, string>[] = [];
    const requests = await requestsDuring(async () => {
      found = await Promise.all(names("rd").map((name) => client.nodes.get(name)));
    });
    expect(found.map((attrs) => attrs.usercomment)).toEqual(names("rd"));
    expect(requests).toBeLessThanOrEqual(3);
  });

  it("queues gets that trickle in behind the one in flight", async () => {
    const [first, ...rest] = names("rd").slice(0, 20);
    let found: Record<string, string>[] = [];
    // A client of its own: the one above holds a snapshot of every node from the test before,
    // which would answer these reads without a request. Its token is in place before counting.
    const fresh = connect(emu, { maxConcurrency: 8 });
    await fresh.nodes.list();
    const requests = await requestsDuring(async () => {
      const reads: Promise<unknown>[] = [fresh.nodes.get(first ?? "")];
      // Order, not time: the others come once the first read is on the wire, one per turn of the
      // event loop, while the emulator takes its 0.3 s to answer (issue #40: a 10 ms pause per
      // read spread them past the answer on a busy machine).
      while (fresh.metrics().inFlight === 0) await new Promise((r) => setImmediate(r));
      for (const name of rest) {
        reads.push(fresh.nodes.get(name));
        await new Promise((r) => setImmediate(r));
      }
      found = (await Promise.all(reads)) as Record<string, string>[];
    });
    await fresh.close();
    expect(found.map((attrs) => attrs.usercomment)).toEqual([first, ...rest]);
    // The first read, then the rest together behind it (a third if its answer came mid-way).
    expect(requests).toBeGreaterThanOrEqual(2);
    expect(requests).toBeLessThanOrEqual(3);
  });

  it(`applies ${COUNT} equal updates in at most 2 requests, and different bodies apart`, async () => {
    const targets = names("up");
    const requests = await requestsDuring(() =>
      Promise.all(targets.map((name) => client.nodes.update(name, { provmethod: "rocky9-netboot" }))),
    );
    expect(requests).toBeLessThanOrEqual(2);
    const read = await client.nodes.getMany(targets, { attrs: ["provmethod"] });
    expect([...read.values()].every((attrs) => attrs.provmethod === "rocky9-netboot")).toBe(true);
    // A read after the merged write sees it (the write log knows every name of the noderange).
    expect((await client.nodes.get("up042")).provmethod).toBe("rocky9-netboot");
  });

  it("fails only the caller whose update is bad, naming its object", async () => {
    // PUT of a node that does not exist needs groups: xCAT refuses it (§9.5), the others apply.
    const targets = ["up001", "up002", "nosuch-update", "up003"];
    const results = await Promise.allSettled(
      targets.map((name) => client.nodes.update(name, { usercomment: "rolled" })),
    );
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    const failure = results[2] as PromiseRejectedResult;
    expect(String(failure.reason?.message)).toContain("nosuch-update");
    expect((await client.nodes.get("up002")).usercomment).toBe("rolled");
  });

  it(`deletes ${COUNT} nodes, one of them missing, in at most 3 requests, all succeeding`, async () => {
    const targets = [...names("dl"), "dlmissing"];
    const requests = await requestsDuring(() =>
      Promise.all(targets.map((name) => client.nodes.delete(name, { ignoreMissing: true }))),
    );
    expect(requests).toBeLessThanOrEqual(3);
    const left = (await client.nodes.list()).filter((name) => name.startsWith("dl"));
    expect(left).toEqual([]);
  });

  it("still reports a missing object to a delete that does not ignore it, and only to that one", async () => {
    await client.nodes.create("dlone", { groups: "merged" });
    const results = await Promise.allSettled([client.nodes.delete("dlone"), client.nodes.delete("dlgone")]);
    expect(results[0]?.status).toBe("fulfilled");
    expect(results[1]?.status).toBe("rejected");
    const reason = (results[1] as PromiseRejectedResult).reason;
    expect(isNotFound(reason)).toBe(true);
    expect(String(reason.message)).toContain("dlgone");
  });

  it("knows what xCAT reports for created nodes of one shape from one read, and matches a real read", async () => {
    await client.groups.update("rackx", { os: "rhels8", netboot: "xnba" });
    const created = Array.from({ length: 30 }, (_, i) => `cr${String(i).padStart(2, "0")}`);
    const sent = (name: string) => ({
      groups: "rackx,all",
      usercomment: name,
      mgt: "ipmi",
      bmcpassword: "s3cret",
    });
    let reports: Record<string, string>[] = [];
    const requests = await requestsDuring(async () => {
      reports = await Promise.all(
        created.map(async (name) => {
          await client.nodes.create(name, sent(name));
          return client.nodes.reportAfterCreate(name, sent(name));
        }),
      );
    });
    // One POST per node and a few reads for the first ones.
    expect(requests).toBeLessThanOrEqual(created.length + 3);
    const actual = await client.nodes.getMany(created);
    expect(reports).toEqual(created.map((name) => actual.get(name)));
    expect(reports[0]?.os).toBe("rhels8");
    // A write to a group may change what nodes inherit: the next create reads again and sees it.
    await client.groups.update("rackx", { os: "rhels9" });
    await client.nodes.create("cr99", sent("cr99"));
    expect((await client.nodes.reportAfterCreate("cr99", sent("cr99"))).os).toBe("rhels9");
  });

  it("does not answer a create from another node's shape when a value decides what it shows (mgt)", async () => {
    await client.groups.update("condx", { mgt: "ipmi", bmc: "10.9.9.9", bmcusername: "admin" });
    const reports: Record<string, string>[] = [];
    const actual: Record<string, string>[] = [];
    for (const [name, mgt] of [
      ["cd1", "ipmi"],
      ["cd2", "kvm"],
    ] as const) {
      await client.nodes.create(name, { groups: "condx", mgt });
      reports.push(await client.nodes.reportAfterCreate(name, { groups: "condx", mgt }));
      actual.push(await client.nodes.getAttrs(name, Object.keys(reports.at(-1) ?? {})));
    }
    expect(reports[0]?.bmc).toBe("10.9.9.9");
    expect(reports).toEqual(
      actual.map((attrs, i) =>
        Object.fromEntries(Object.entries(attrs).filter(([key]) => key in (reports[i] ?? {}))),
      ),
    );
    expect((await client.nodes.get("cd2")).bmc).toBe(reports[1]?.bmc);
  });
});
