/**
 * NodeSet through the provider runtime, as Pulumi's host calls it, against a fresh in-process
 * emulator, counting the requests each step sends (emulator stats by route). What xCAT does with
 * a noderange in the path: chdef and rmdef expand it (xcat-behavior.md §1.3, DBobjectdefs via
 * `noderange($x,0)` in DBdefs 1167-1176), and a DELETE of a range with a missing node still
 * deletes the others (§9.6); the emulator follows that, and the counts below rest on it.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportsOfOutputs as reports } from "../../src/provider/node-set-reports";
import { type ProviderHarness, providerHarness, runtime } from "./support";

const KIND = "xcat:NodeSet";
const pad = (n: number) => String(n).padStart(2, "0");

function rackCsv(rack: number, count: number, skip: readonly number[] = []): string {
  const lines = ["node,ip,mac,bmc"];
  for (let n = 1; n <= count; n += 1) {
    if (skip.includes(n)) continue;
    lines.push(
      `r${pad(rack)}n${pad(n)},10.0.${rack}.${n},52:54:00:00:${pad(rack)}:${pad(n)},10.1.${rack}.${n}`,
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}

function rack(rack: number, csv: string, provmethod = "rocky9-netboot") {
  return {
    groups: [`rack${rack}`, "compute", "all"],
    attributes: { mgt: "ipmi", arch: "x86_64", provmethod },
    csv,
  };
}

let h: ProviderHarness;
const requests = () => ({ ...h.emulator.stats().byRoute });
/** Requests by route sent since `before`, routes with none left out. */
function since(before: Record<string, number>): Record<string, number> {
  const now = h.emulator.stats().byRoute;
  return Object.fromEntries(
    Object.entries(now)
      .map(([route, count]) => [route, count - (before[route] ?? 0)] as const)
      .filter(([, count]) => count > 0),
  );
}

async function checked(olds: Record<string, unknown>, news: Record<string, unknown>) {
  const result = await runtime.check(KIND, olds, news);
  if (result.failures?.length) throw new Error(`check failed: ${JSON.stringify(result.failures)}`);
  return result.inputs as Record<string, unknown>;
}

async function applied(id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
  const inputs = await checked(olds, news);
  const diff = await runtime.diff(KIND, id, olds, inputs);
  expect(diff.changes).toBe(true);
  return (await runtime.update(KIND, id, olds, inputs)).outs as Record<string, unknown>;
}

beforeAll(async () => {
  h = await providerHarness();
});

afterAll(async () => {
  await h?.close();
});

describe("NodeSet of a 20-node rack from CSV", () => {
  let id = "";
  let outs: Record<string, unknown> = {};

  it("creates each node with its own row, one POST each, and reports per node what xCAT holds", async () => {
    const before = requests();
    const created = await h.createChecked(KIND, rack(2, rackCsv(2, 20)));
    id = created.id;
    outs = created.outs;
    const sent = since(before);
    expect(sent["POST /nodes/{noderange}"]).toBe(20);
    expect(sent["PUT /nodes/{noderange}"]).toBeUndefined();
    expect(id).toBe("r02n[01-20]");
    expect(outs.noderange).toBe("r02n[01-20]");
    const perNode = reports(outs);
    expect(Object.keys(perNode)).toHaveLength(20);
    expect(perNode.r02n07).toMatchObject({
      ip: "10.0.2.7",
      mac: "52:54:00:00:02:07",
      groups: "rack2,compute,all",
    });
    expect(perNode.r02n13?.bmc).toBe("10.1.2.13");
    expect((await h.admin.nodes.get("r02n20")).provmethod).toBe("rocky9-netboot");
    // Name services as for a Node: every node's entries, merged into few noderange requests.
    const dns = h.emulator.state.getRows("_emu_dns").map((row) => String(row.name));
    expect(dns.filter((name) => name.startsWith("r02n"))).toHaveLength(20);
    expect(sent["POST /nodes/{noderange}/dns"]).toBeLessThan(20);
  });

  it("rolls the rack's image with exactly 1 PUT of its noderange and no read-back, reporting what a read returns", async () => {
    const before = requests();
    outs = await applied(id, outs, rack(2, rackCsv(2, 20), "rocky9-netboot-v2"));
    // provmethod lives in a column of its own, which every node held itself: what xCAT reports
    // after the PUT is known (known-after-update.ts), so nothing is read back.
    const sent = since(before);
    expect(sent["PUT /nodes/{noderange}"]).toBe(1);
    expect(sent["GET /nodes/{noderange}"]).toBeUndefined();
    expect(Object.keys(sent).filter((route) => !route.startsWith("GET"))).toEqual(["PUT /nodes/{noderange}"]);
    const all = await h.admin.nodes.getMany("r02n[01-20]");
    expect([...all.values()].every((node) => node.provmethod === "rocky9-netboot-v2")).toBe(true);
    // What the roll reported per node is what a read of the server gives, node by node.
    const read = await runtime.read(KIND, id, outs);
    expect(reports(outs)).toEqual(reports(read.props));
    expect(reports(outs).r02n11?.provmethod).toBe("rocky9-netboot-v2");
  });

  it("creates only the 2 rows added", async () => {
    const before = requests();
    outs = await applied(id, outs, rack(2, rackCsv(2, 22), "rocky9-netboot-v2"));
    const sent = since(before);
    expect(sent["POST /nodes/{noderange}"]).toBe(2);
    expect(sent["PUT /nodes/{noderange}"]).toBeUndefined();
    expect(sent["DELETE /nodes/{noderange}"]).toBeUndefined();
    expect(outs.noderange).toBe("r02n[01-22]");
    expect((await h.admin.nodes.get("r02n22")).ip).toBe("10.0.2.22");
  });

  it("deletes the 1 row removed with 1 DELETE, and nothing else", async () => {
    const before = requests();
    outs = await applied(id, outs, rack(2, rackCsv(2, 22, [5]), "rocky9-netboot-v2"));
    const sent = since(before);
    expect(sent["DELETE /nodes/{noderange}"]).toBe(1);
    expect(sent["POST /nodes/{noderange}"]).toBeUndefined();
    expect(sent["PUT /nodes/{noderange}"]).toBeUndefined();
    expect((await h.admin.nodes.list()).filter((n) => n.startsWith("r02n"))).toHaveLength(21);
    expect(await h.admin.nodes.list()).not.toContain("r02n05");
    expect(outs.noderange).toBe("r02n[01-04,06-22]");
  });

  it("reads a hand edit of one node's ip as that node and attribute, in one GET, and up restores it", async () => {
    await h.admin.nodes.update("r02n03", { ip: "10.9.9.9" });
    const before = requests();
    const read = await runtime.read(KIND, id, outs);
    expect(since(before)).toEqual({ "GET /nodes/{noderange}": 1 });
    const inputs = read.inputs as { rows: Record<string, Record<string, string>> };
    const recorded = outs.rows as Record<string, Record<string, string>>;
    expect(inputs.rows.r02n03).toEqual({ ...recorded.r02n03, ip: "10.9.9.9" });
    // Every other node reads back as recorded: the difference is that node's, and only its ip.
    for (const node of Object.keys(recorded).filter((n) => n !== "r02n03"))
      expect(inputs.rows[node]).toEqual(recorded[node]);
    const refreshed = read.props as Record<string, unknown>;
    const beforeUp = requests();
    outs = await applied(id, refreshed, rack(2, rackCsv(2, 22, [5]), "rocky9-netboot-v2"));
    expect(since(beforeUp)["PUT /nodes/{noderange}"]).toBe(1);
    expect((await h.admin.nodes.get("r02n03")).ip).toBe("10.0.2.3");
  });

  it("reads a common value changed by hand on one node as that node's own, and a node deleted by hand as missing", async () => {
    await h.admin.nodes.update("r02n08", { provmethod: "hand-made" });
    await h.admin.nodes.delete("r02n09");
    const read = await runtime.read(KIND, id, outs);
    const inputs = read.inputs as { rows: Record<string, Record<string, string>> };
    expect(inputs.rows.r02n08?.provmethod).toBe("hand-made");
    expect(inputs.rows.r02n09).toBeUndefined();
    const before = requests();
    outs = await applied(
      id,
      read.props as Record<string, unknown>,
      rack(2, rackCsv(2, 22, [5]), "rocky9-netboot-v2"),
    );
    const sent = since(before);
    expect(sent["POST /nodes/{noderange}"]).toBe(1);
    expect(sent["PUT /nodes/{noderange}"]).toBe(1);
    expect((await h.admin.nodes.get("r02n08")).provmethod).toBe("rocky9-netboot-v2");
    expect((await h.admin.nodes.get("r02n09")).ip).toBe("10.0.2.9");
  });

  it("has no changes when the program is as recorded, and clears a dropped column on every node with 1 PUT", async () => {
    const same = await checked(outs, rack(2, rackCsv(2, 22, [5]), "rocky9-netboot-v2"));
    expect((await runtime.diff(KIND, id, outs, same)).changes).toBe(false);
    const withoutArch = { ...rack(2, rackCsv(2, 22, [5]), "rocky9-netboot-v2") };
    withoutArch.attributes = {
      mgt: "ipmi",
      provmethod: "rocky9-netboot-v2",
    } as typeof withoutArch.attributes;
    const before = requests();
    outs = await applied(id, outs, withoutArch);
    // A clear may uncover a group's value: the nodes are read back, in one GET for the set.
    const sent = since(before);
    expect(sent["PUT /nodes/{noderange}"]).toBe(1);
    expect(sent["GET /nodes/{noderange}"]).toBe(1);
    expect((await h.admin.nodes.get("r02n14")).arch ?? "").toBe("");
    expect(reports(outs).r02n14?.arch ?? "").toBe("");
  });

  it("deletes the whole set with 1 DELETE of its noderange", async () => {
    const before = requests();
    await runtime.delete(KIND, id, outs);
    // The nodes' DNS and DHCP entries go first, each command merged into one noderange request.
    expect(since(before)).toEqual({
      "DELETE /nodes/{noderange}": 1,
      "DELETE /nodes/{noderange}/dns": 1,
      "DELETE /nodes/{noderange}/dhcp": 1,
    });
    expect((await h.admin.nodes.list()).filter((n) => n.startsWith("r02n"))).toEqual([]);
  });
});

describe("Five NodeSets at once, as the engine runs a refresh or an up of a cluster (issue #38 items 3 and 7)", () => {
  const RACKS = [11, 12, 13, 14, 15];
  const sets = new Map<number, { id: string; outs: Record<string, unknown> }>();

  beforeAll(async () => {
    for (const r of RACKS) sets.set(r, await h.createChecked(KIND, rack(r, rackCsv(r, 8))));
  });

  afterAll(async () => {
    for (const set of sets.values()) await runtime.delete(KIND, set.id, set.outs);
  });

  const each = <T>(work: (r: number, set: { id: string; outs: Record<string, unknown> }) => Promise<T>) =>
    Promise.all(RACKS.map((r) => work(r, sets.get(r) ?? { id: "", outs: {} })));

  it("reads 5 sets read together with fewer than 5 requests, each getting only its own nodes", async () => {
    await h.admin.nodes.update("r13n04", { ip: "10.9.13.4" });
    // The refresh is a command of its own: the sets' creation read the type moments ago in this
    // process, and on a busy machine that snapshot could still answer for the hand edit.
    await h.nextEngineCommand();
    const before = requests();
    const reads = await each((_r, set) => runtime.read(KIND, set.id, set.outs));
    const sent = since(before);
    // Reads only (a size probe, GET /nodes, may go out too: the rent-or-buy rule's), after the
    // fresh process's login.
    expect(Object.keys(sent).filter((route) => !route.startsWith("GET"))).toEqual(["POST /tokens"]);
    expect(sent["POST /tokens"]).toBe(1);
    expect(sent["GET /nodes/{noderange}"]).toBeLessThan(5);
    reads.forEach((read, index) => {
      const rows = (read.inputs as { rows: Record<string, Record<string, string>> }).rows;
      expect(Object.keys(rows)).toEqual(Object.keys(rackCsvRows(RACKS[index] ?? 0, 8)));
    });
    const r13 = reads[2]?.inputs as { rows: Record<string, Record<string, string>> } | undefined;
    expect(r13?.rows.r13n04?.ip).toBe("10.9.13.4");
    await h.admin.nodes.update("r13n04", { ip: "10.0.13.4" });
  });

  it("rolls 5 sets at once with 1 PUT each and nothing read back", async () => {
    const before = requests();
    const rolled = await each((r, set) =>
      applied(set.id, set.outs, rack(r, rackCsv(r, 8), "rocky9-netboot-v3")),
    );
    const sent = since(before);
    expect(sent["PUT /nodes/{noderange}"]).toBe(5);
    expect(sent["GET /nodes/{noderange}"]).toBeUndefined();
    expect(Object.keys(sent).filter((route) => !route.startsWith("GET"))).toEqual(["PUT /nodes/{noderange}"]);
    RACKS.forEach((r, index) => {
      sets.set(r, { id: sets.get(r)?.id ?? "", outs: rolled[index] ?? {} });
    });
    const reads = await each((_r, set) => runtime.read(KIND, set.id, set.outs));
    reads.forEach((read, index) => {
      expect(reports(rolled[index])).toEqual(reports(read.props));
    });
  });

  it("reads the 5 sets back together after a change that must be read (a dropped column)", async () => {
    const without = (r: number) => ({
      ...rack(r, rackCsv(r, 8), "rocky9-netboot-v3"),
      attributes: { mgt: "ipmi", provmethod: "rocky9-netboot-v3" },
    });
    const before = requests();
    const updated = await each((r, set) => applied(set.id, set.outs, without(r)));
    const sent = since(before);
    expect(sent["PUT /nodes/{noderange}"]).toBe(5);
    expect(sent["GET /nodes/{noderange}"]).toBeLessThan(5);
    RACKS.forEach((r, index) => {
      sets.set(r, { id: sets.get(r)?.id ?? "", outs: updated[index] ?? {} });
      const perNode = reports(updated[index]);
      expect(Object.keys(perNode)).toEqual(Object.keys(rackCsvRows(r, 8)));
      for (const values of Object.values(perNode)) expect(values.arch ?? "").toBe("");
    });
  });
});

/** The rows rackCsv writes, by node. */
function rackCsvRows(r: number, count: number): Record<string, unknown> {
  return Object.fromEntries(Array.from({ length: count }, (_, n) => [`r${pad(r)}n${pad(n + 1)}`, {}]));
}

describe("NodeSet over nodes that exist", () => {
  it("refuses without adopt, naming the node and attribute, and writes nothing", async () => {
    await h.admin.nodes.create("r03n02", { groups: "other", ip: "10.0.3.99" });
    const before = requests();
    await expect(h.createChecked(KIND, rack(3, rackCsv(3, 4)))).rejects.toThrow(
      /1 node of the set already exists in xCAT with other values: r03n02 \(groups, .*ip.*\)\. Nothing was changed/,
    );
    const sent = since(before);
    expect(Object.keys(sent).filter((route) => !route.startsWith("GET"))).toEqual([]);
    expect(await h.admin.nodes.list()).not.toContain("r03n01");
  });

  it("with adopt, shows per node what changes before approval, then makes it match", async () => {
    const inputs = await checked({}, { ...rack(3, rackCsv(3, 4)), adopt: true });
    expect(inputs.adoptChanges).toMatchObject({
      "r03n02.ip": "10.0.3.99 → 10.0.3.2",
      "r03n02.groups": "other → rack3,compute,all",
    });
    const created = await runtime.create(KIND, inputs);
    expect((await h.admin.nodes.get("r03n02")).ip).toBe("10.0.3.2");
    expect((await h.admin.nodes.get("r03n04")).ip).toBe("10.0.3.4");
    await runtime.delete(KIND, created.id, created.outs);
  });
});

describe("NodeSet release: a row leaves the set, its node stays (issue #38 item 6)", () => {
  it("removing a released row sends no DELETE and leaves the node as it was; a row not released is deleted", async () => {
    const created = await h.createChecked(KIND, rack(7, rackCsv(7, 4)));
    const held = await h.admin.nodes.get("r07n02");
    const before = requests();
    const outs = await applied(created.id, created.outs, {
      ...rack(7, rackCsv(7, 4, [2, 3])),
      release: "r07n02",
    });
    const sent = since(before);
    // r07n03 was not released: its one DELETE; r07n02 was: nothing sent for it.
    expect(sent["DELETE /nodes/{noderange}"]).toBe(1);
    expect(sent["POST /nodes/{noderange}"]).toBeUndefined();
    expect(sent["PUT /nodes/{noderange}"]).toBeUndefined();
    expect(await h.admin.nodes.get("r07n02")).toEqual(held);
    expect(await h.admin.nodes.list()).not.toContain("r07n03");
    expect(outs.noderange).toBe("r07n01,r07n04");
    // Back into the set: the node holds the set's values, so the added row sends nothing.
    const again = requests();
    const back = await applied(created.id, outs, rack(7, rackCsv(7, 4, [3])));
    expect(Object.keys(since(again)).filter((route) => !route.startsWith("GET"))).toEqual([]);
    expect(back.noderange).toBe("r07n[01-02,04]");
    await runtime.delete(KIND, created.id, back);
  });

  it("refuses a release that is no noderange, naming the input", async () => {
    const result = await h.check(KIND, { ...rack(7, rackCsv(7, 2)), release: "r07n01 r07n02" });
    expect(result.failures).toEqual([
      {
        property: "release",
        reason: "release 'r07n01 r07n02' must not contain '/', '?', '#', '%' or whitespace",
      },
    ]);
  });
});

describe("NodeSet with postscripts", () => {
  it("compares a node's own postscripts, without the xcatdefaults scripts lsdef puts in front: no drift", async () => {
    const created = await h.createChecked(KIND, {
      groups: ["ps", "all"],
      attributes: { postscripts: "confignetwork" },
      rows: { ps01: { ip: "10.0.6.1" }, ps02: { ip: "10.0.6.2" } },
    });
    const reported = reports(created.outs).ps01;
    // lsdef shows the defaults in front (xcat-behavior.md §9.7); the set declared only its own.
    expect(reported?.postscripts).not.toBe("confignetwork");
    expect(reported?.postscripts).toMatch(/confignetwork$/);
    const read = await runtime.read(KIND, created.id, created.outs);
    expect((read.inputs as { rows: unknown }).rows).toEqual(created.outs.rows);
    const again = await checked(read.props as Record<string, unknown>, {
      groups: ["ps", "all"],
      attributes: { postscripts: "confignetwork" },
      rows: { ps01: { ip: "10.0.6.1" }, ps02: { ip: "10.0.6.2" } },
    });
    expect((await runtime.diff(KIND, created.id, read.props, again)).changes).toBe(false);
    await runtime.delete(KIND, created.id, created.outs);
  });
});

describe("NodeSet input checks", () => {
  it("fails check naming the csv line and column, before any request", async () => {
    const before = requests();
    const csv = rackCsv(4, 3).replace("52:54:00:00:04:02", "52:54:00:zz:04:02");
    const result = await h.check(KIND, rack(4, csv));
    expect(result.failures).toEqual([
      {
        property: "csv",
        reason:
          "csv line 3, column 'mac': mac '52:54:00:zz:04:02' is not a MAC address like 52:54:00:00:00:01, or several as mac!hostname separated by '|'",
      },
    ]);
    expect(since(before)).toEqual({});
  });
});

describe.each(["2.17.0", "2.19"] as const)(
  "NodeSet on xCAT %s, bmc decided by the nodes' group",
  (xcatVersion) => {
    let old: ProviderHarness;
    beforeAll(async () => {
      old = await providerHarness({ xcatVersion });
    });
    afterAll(async () => {
      await old?.close();
    });

    it("gets each node's bmc on create: a second request where the release may drop it (2.17.0:perl-xCAT/xCAT/DBobjUtils.pm:1214-1229)", async () => {
      await old.admin.groups.update("ipmigrp", { mgt: "ipmi" });
      const before = old.emulator.stats().byRoute["PUT /nodes/{noderange}"] ?? 0;
      await old.createChecked(KIND, {
        groups: ["ipmigrp"],
        rows: { g01: { bmc: "127.0.10.1", ip: "10.0.5.1" }, g02: { bmc: "127.0.10.2", ip: "10.0.5.2" } },
      });
      expect(old.emulator.state.getObject("node", "g01")).toMatchObject({ mgt: "ipmi", bmc: "127.0.10.1" });
      expect(old.emulator.state.getObject("node", "g02")).toMatchObject({ mgt: "ipmi", bmc: "127.0.10.2" });
      const puts = (old.emulator.stats().byRoute["PUT /nodes/{noderange}"] ?? 0) - before;
      // One PUT per node on 2.17.0 (each bmc is its own value); none where the create keeps it.
      expect(puts).toBe(xcatVersion === "2.19" ? 0 : 2);
    });
  },
);
