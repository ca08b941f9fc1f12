/**
 * NodeSet on the Confluent backend, through the provider runtime as Pulumi's host calls it,
 * against a fresh in-process confluent-emulator behind a recording proxy: every request the
 * provider sends is counted (method and path) and what each node holds is read back over
 * Confluent's own API. What the counts rest on, from xcat2/confluent 3.15.6:
 * - `POST /noderange/` gives every node of the range the same attributes (core.py:823-837
 *   create_noderange), and an attribute PUT to a noderange gives every node the same input
 *   (messages.py:843-844 InputAttributes): there is no per-node body, so a node with values of its
 *   own (ip, mac) is created with its own POST;
 * - a noderange PUT answers every node's attributes after the change (real-confluent.md item 11);
 * - a noderange naming a node that is gone fails whole, deleting nothing (item 12).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportsOfOutputs } from "../../src/provider/node-set-reports";
import { configureProcess, resetProcessContext } from "../../src/provider/process-context";
import * as runtime from "../../src/provider/runtime";
import { type ConfluentProviderHarness, confluentProviderHarness } from "./confluent-harness";

const KIND = "xcat:NodeSet";
const pad = (n: number) => String(n).padStart(2, "0");

/** A rack's inventory: node,ip,mac,bmc, each node's values its own. */
function rackCsv(rack: number, count: number, skip: readonly number[] = []): string {
  const lines = ["node,ip,mac,bmc"];
  for (let n = 1; n <= count; n += 1) {
    if (skip.includes(n)) continue;
    lines.push(
      `c${rack}n${pad(n)},10.5.${rack}.${n},52:54:00:05:${pad(rack)}:${pad(n)},127.0.10.${rack * 20 + n}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

function rack(rack: number, csv: string, usercomment = "rack one") {
  return {
    groups: [`cfrack${rack}`, "cfcompute", "all"],
    attributes: { mgt: "ipmi", usercomment },
    csv,
  };
}

let h: ConfluentProviderHarness;
/** The requests the provider sent since `from` (an index into the proxy's record). */
const sentSince = (from: number) =>
  h.proxy.requests.slice(from).map(({ method, path }) => `${method} ${path}`);
const mark = () => h.proxy.requests.length;

async function checked(olds: Record<string, unknown>, news: Record<string, unknown>) {
  const result = await runtime.check(KIND, olds, news);
  if (result.failures?.length) throw new Error(`check failed: ${JSON.stringify(result.failures)}`);
  return result.inputs as Record<string, unknown>;
}

async function created(news: Record<string, unknown>) {
  const made = await runtime.create(KIND, await checked({}, news));
  return { id: made.id, outs: made.outs as Record<string, unknown> };
}

async function applied(id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
  const inputs = await checked(olds, news);
  const diff = await runtime.diff(KIND, id, olds, inputs);
  expect(diff.changes).toBe(true);
  return (await runtime.update(KIND, id, olds, inputs)).outs as Record<string, unknown>;
}

const held = (node: string, attribute: string) => h.emulator.state.nodeAttributes(node)?.[attribute];

beforeAll(async () => {
  h = await confluentProviderHarness({});
});

afterAll(async () => {
  await h?.close();
});

describe("NodeSet on Confluent: a rack of 6 from CSV", () => {
  let id = "";
  let outs: Record<string, unknown> = {};

  it("creates each node with its own row, reading the set back in one GET, with the same per-node truth as on xCAT", async () => {
    const from = mark();
    const made = await created(rack(1, rackCsv(1, 6)));
    id = made.id;
    outs = made.outs;
    const sent = sentSince(from);
    // The groups are made first (Confluent wants a group before a node names it), then one POST
    // per node (each row has its own ip, mac and bmc), then one read of the set.
    expect(sent.filter((r) => r === "POST /nodes/")).toHaveLength(6);
    expect(sent.filter((r) => r.startsWith("POST /nodegroups/"))).toHaveLength(2);
    expect(sent.filter((r) => r.startsWith("GET /noderange/c1n01,c1n02"))).toHaveLength(2);
    expect(sent.filter((r) => r.startsWith("PUT "))).toEqual([]);
    expect(id).toBe("c1n[01-06]");
    expect(outs.noderange).toBe("c1n[01-06]");
    // Each node holds its own row and the set's values, under Confluent's names.
    expect(held("c1n03", "net.ipv4_address")).toEqual({ value: "10.5.1.3" });
    expect(held("c1n03", "net.hwaddr")).toEqual({ value: "52:54:00:05:01:03" });
    expect(held("c1n03", "hardwaremanagement.manager")).toEqual({ value: "127.0.10.23" });
    expect(held("c1n03", "hardwaremanagement.method")).toEqual({ value: "ipmi" });
    expect(held("c1n03", "info.note")).toEqual({ value: "rack one" });
    expect(held("c1n03", "groups")).toEqual(["cfrack1", "cfcompute", "everything"]);
    // nodeAttributes: each node's own values, never another's, in xCAT's names.
    const nodeAttributes = reportsOfOutputs(outs);
    expect(Object.keys(nodeAttributes)).toHaveLength(6);
    expect(nodeAttributes.c1n05).toMatchObject({
      groups: "cfrack1,cfcompute,all",
      ip: "10.5.1.5",
      mac: "52:54:00:05:01:05",
      bmc: "127.0.10.25",
      mgt: "ipmi",
      usercomment: "rack one",
    });
    // A refresh right after finds nothing to change.
    const read = await runtime.read(KIND, id, outs);
    const again = await checked(read.props as Record<string, unknown>, rack(1, rackCsv(1, 6)));
    expect((await runtime.diff(KIND, id, read.props, again)).changes).toBe(false);
  });

  it("changes a value common to the set with one PUT of its noderange and reads nothing back", async () => {
    const from = mark();
    outs = await applied(id, outs, rack(1, rackCsv(1, 6), "rack one, rolled"));
    expect(sentSince(from)).toEqual([
      "PUT /noderange/c1n01,c1n02,c1n03,c1n04,c1n05,c1n06/attributes/current",
    ]);
    expect(h.proxy.requests.at(-1)?.body).toEqual({ "info.note": "rack one, rolled" });
    for (let n = 1; n <= 6; n += 1)
      expect(held(`c1n0${n}`, "info.note")).toEqual({ value: "rack one, rolled" });
    // What the state records is what the PUT answered each node holds.
    expect(reportsOfOutputs(outs).c1n06?.usercomment).toBe("rack one, rolled");
  });

  it("clears a column the CSV no longer has, on every node, with one PUT of null", async () => {
    const withoutBmc = rackCsv(1, 6)
      .split("\n")
      .map((line) => line.split(",").slice(0, 3).join(","))
      .join("\n");
    const from = mark();
    outs = await applied(id, outs, rack(1, withoutBmc, "rack one, rolled"));
    expect(sentSince(from)).toEqual([
      "PUT /noderange/c1n01,c1n02,c1n03,c1n04,c1n05,c1n06/attributes/current",
    ]);
    expect(h.proxy.requests.at(-1)?.body).toEqual({ "hardwaremanagement.manager": null });
    expect(held("c1n02", "hardwaremanagement.manager")).toBeUndefined();
    expect(held("c1n02", "net.ipv4_address")).toEqual({ value: "10.5.1.2" });
    // Put back for the next steps: each bmc is its own value, one PUT per node.
    const back = mark();
    outs = await applied(id, outs, rack(1, rackCsv(1, 6), "rack one, rolled"));
    expect(sentSince(back).filter((r) => r.startsWith("PUT /noderange/c1n0"))).toHaveLength(6);
    expect(held("c1n02", "hardwaremanagement.manager")).toEqual({ value: "127.0.10.22" });
  });

  it("refresh reads a hand edit of one node's ip in one GET, as that node's row; up restores it with one PUT", async () => {
    await h.admin.nodes.update("c1n04", { "net.ipv4_address": "10.5.9.99" });
    const wanted = rack(1, rackCsv(1, 6), "rack one, rolled");
    const from = mark();
    const read = await runtime.read(KIND, id, outs);
    expect(sentSince(from)).toEqual([
      "GET /noderange/c1n01,c1n02,c1n03,c1n04,c1n05,c1n06/attributes/current",
    ]);
    const rows = (read.inputs as { rows: Record<string, Record<string, string>> }).rows;
    expect(rows.c1n04?.ip).toBe("10.5.9.99");
    expect(rows.c1n03?.ip).toBe("10.5.1.3");
    const inputs = await checked(read.props as Record<string, unknown>, wanted);
    const diff = await runtime.diff(KIND, id, read.props, inputs);
    expect(diff.changes).toBe(true);
    const fix = mark();
    outs = (await runtime.update(KIND, id, read.props, inputs)).outs as Record<string, unknown>;
    expect(sentSince(fix)).toEqual(["PUT /noderange/c1n04/attributes/current"]);
    expect(h.proxy.requests.at(-1)?.body).toEqual({ "net.ipv4_address": "10.5.1.4" });
    expect(held("c1n04", "net.ipv4_address")).toEqual({ value: "10.5.1.4" });
  });

  it("a node deleted by hand leaves the set's rows on refresh, and up makes only it again", async () => {
    await h.admin.nodes.delete("c1n02");
    const read = await runtime.read(KIND, id, outs);
    const rows = (read.inputs as { rows: Record<string, unknown> }).rows;
    expect(Object.keys(rows).sort()).toEqual(["c1n01", "c1n03", "c1n04", "c1n05", "c1n06"]);
    const from = mark();
    const inputs = await checked(
      read.props as Record<string, unknown>,
      rack(1, rackCsv(1, 6), "rack one, rolled"),
    );
    outs = (await runtime.update(KIND, id, read.props, inputs)).outs as Record<string, unknown>;
    const writes = sentSince(from).filter((r) => !r.startsWith("GET "));
    expect(writes).toEqual(["POST /nodes/"]);
    expect(held("c1n02", "net.hwaddr")).toEqual({ value: "52:54:00:05:01:02" });
    expect(held("c1n02", "info.note")).toEqual({ value: "rack one, rolled" });
  });

  it("rows added create only those nodes; rows removed go in one DELETE of their range", async () => {
    const from = mark();
    outs = await applied(id, outs, rack(1, rackCsv(1, 8, [5, 6]), "rack one, rolled"));
    const writes = sentSince(from).filter((r) => !r.startsWith("GET "));
    expect(writes.sort()).toEqual(["DELETE /noderange/c1n05,c1n06", "POST /nodes/", "POST /nodes/"]);
    expect(h.emulator.state.nodeNames().filter((n) => n.startsWith("c1n"))).toEqual([
      "c1n01",
      "c1n02",
      "c1n03",
      "c1n04",
      "c1n07",
      "c1n08",
    ]);
    expect(held("c1n07", "net.ipv4_address")).toEqual({ value: "10.5.1.7" });
    expect(outs.noderange).toBe("c1n[01-04,07-08]");
  });

  it("deletes the set with one DELETE; with a node already gone by hand, lists and deletes the rest; the groups go with the last node", async () => {
    await h.admin.nodes.delete("c1n03");
    const from = mark();
    await runtime.delete(KIND, id, outs);
    const sent = sentSince(from);
    expect(sent.slice(0, 3)).toEqual([
      "DELETE /noderange/c1n01,c1n02,c1n03,c1n04,c1n07,c1n08",
      "GET /noderange/everything/nodes/",
      "DELETE /noderange/c1n01,c1n02,c1n04,c1n07,c1n08",
    ]);
    expect(h.emulator.state.nodeNames().filter((n) => n.startsWith("c1n"))).toEqual([]);
    expect(h.emulator.state.groupNames().filter((g) => g.startsWith("cf"))).toEqual([]);
  });
});

describe("NodeSet on Confluent: equal nodes, adopt, and what Confluent cannot hold", () => {
  it("creates nodes whose values are all equal with one POST of their noderange", async () => {
    const from = mark();
    const made = await created({
      groups: ["cfspare"],
      attributes: { mgt: "ipmi", rack: "r9" },
      nodes: "cfs[1-4]",
      rows: { cfs1: {}, cfs2: {}, cfs3: {}, cfs4: {} },
    });
    const writes = sentSince(from).filter((r) => !r.startsWith("GET "));
    expect(writes).toEqual(["POST /nodegroups/", "POST /noderange/"]);
    expect(h.proxy.requests.find((r) => r.path === "/noderange/")?.body).toEqual({
      name: "cfs1,cfs2,cfs3,cfs4",
      groups: ["cfspare"],
      "hardwaremanagement.method": "ipmi",
      "location.rack": "r9",
    });
    expect(held("cfs3", "location.rack")).toEqual({ value: "r9" });
    expect(made.outs.noderange).toBe("cfs[1-4]");
    await runtime.delete(KIND, made.id, made.outs);
    expect(h.emulator.state.nodeNames().filter((n) => n.startsWith("cfs"))).toEqual([]);
  });

  it("refuses a node made by hand with other values without adopt, writing nothing; adopt shows and takes it per node", async () => {
    await h.admin.groups.create("cfadopt", {});
    await h.admin.nodes.create("cfa1", { groups: ["cfadopt"], "net.ipv4_address": "10.6.0.99" });
    const set = {
      groups: ["cfadopt"],
      attributes: { mgt: "ipmi" },
      rows: { cfa1: { ip: "10.6.0.1" }, cfa2: { ip: "10.6.0.2" } },
    };
    const from = mark();
    await expect(created(set)).rejects.toThrow(
      /1 node of the set already exists on Confluent with other values: cfa1 \(.*ip.*\)\. Nothing was changed/,
    );
    expect(sentSince(from).filter((r) => !r.startsWith("GET "))).toEqual([]);
    expect(h.emulator.state.nodeNames()).not.toContain("cfa2");
    // With adopt, preview says what it changes on that node, by node and attribute.
    const inputs = await checked({}, { ...set, adopt: true });
    expect(inputs.adoptChanges).toMatchObject({ "cfa1.ip": "10.6.0.99 → 10.6.0.1" });
    expect(h.stderr.join("")).toMatch(
      /takes over the existing node 'cfa1', changing .*ip: 10\.6\.0\.99 → 10\.6\.0\.1/,
    );
    const { adoptChanges: _shown, ...toCreate } = inputs;
    const made = await runtime.create(KIND, toCreate);
    expect(held("cfa1", "net.ipv4_address")).toEqual({ value: "10.6.0.1" });
    expect(held("cfa2", "net.ipv4_address")).toEqual({ value: "10.6.0.2" });
    await runtime.delete(KIND, made.id, made.outs);
    expect(h.emulator.state.groupNames()).not.toContain("cfadopt");
  });

  it("fails preview on an attribute Confluent has no place for, naming the set and the column; xcat:confluentOmit leaves it out and says so", async () => {
    const set = {
      groups: ["cfomit"],
      attributes: { mgt: "ipmi", arch: "x86_64" },
      csv: "node,ip,postscripts\ncfo1,10.7.0.1,confignetwork\n",
    };
    const from = mark();
    const refused = await runtime.check(KIND, {}, set);
    expect(refused.failures).toEqual([
      {
        property: "attributes",
        reason: expect.stringMatching(
          /^xcat:NodeSet 'cfo1': attribute 'arch' has no counterpart on Confluent: .*To leave it out, .*xcat:confluentOmit arch/,
        ),
      },
      {
        property: "csv",
        reason: expect.stringMatching(
          /^xcat:NodeSet 'cfo1': attribute 'postscripts' has no counterpart on Confluent: .*deployment profile/,
        ),
      },
    ]);
    expect(sentSince(from)).toEqual([]);
    await resetProcessContext();
    const config: Record<string, string> = {
      "xcat:backend": "confluent",
      "xcat:url": h.proxy.url,
      "xcat:username": "root",
      "xcat:password": "cluster",
      "xcat:confluentOmit": "arch,postscripts",
    };
    configureProcess((key) => config[key]);
    const omitted = await checked({}, set);
    expect(omitted.attributes).toEqual({ mgt: "ipmi" });
    expect(omitted.rows).toEqual({ cfo1: { ip: "10.7.0.1" } });
    expect(h.stderr.join("")).toMatch(
      /xcat:NodeSet 'cfo1': left out on Confluent \(xcat:confluentOmit\): arch, postscripts/,
    );
    await resetProcessContext();
    configureProcess((key) => ({ ...config, "xcat:confluentOmit": "" })[key]);
  });

  it("moves a node from the set's rows to a Node and back with no write to Confluent (release, adopt)", async () => {
    const rows = {
      cfm1: { ip: "10.9.1.1", mac: "52:54:00:09:01:01" },
      cfm2: { ip: "10.9.1.2", mac: "52:54:00:09:01:02" },
    };
    const set = { groups: ["cfmove", "all"], attributes: { mgt: "ipmi" }, rows };
    const made = await created(set);
    const before = h.emulator.state.nodeAttributes("cfm2");
    const from = mark();
    // Out of the set: its row goes, release keeps the node.
    const released = await applied(made.id, made.outs, {
      ...set,
      rows: { cfm1: rows.cfm1 },
      release: "cfm2",
    });
    expect(h.stderr.join("")).toMatch(/released the node 'cfm2': it stays on Confluent as it is/);
    // Into a Node of its own, taken over as it is.
    const nodeInputs = (
      await runtime.check(
        "xcat:Node",
        {},
        { name: "cfm2", groups: ["cfmove", "all"], attributes: { mgt: "ipmi", ...rows.cfm2 }, adopt: true },
      )
    ).inputs as Record<string, unknown>;
    const { adoptChanges: _shown, ...toCreate } = nodeInputs;
    await runtime.create("xcat:Node", toCreate);
    // And back into the set (the Node leaves the program with retainOnDelete, which the engine
    // does without the provider): the row finds the node as it is.
    const back = await applied(made.id, released, set);
    expect(sentSince(from).filter((r) => !r.startsWith("GET "))).toEqual([]);
    expect(h.emulator.state.nodeAttributes("cfm2")).toEqual(before);
    expect(Object.keys(back.rows as object).sort()).toEqual(["cfm1", "cfm2"]);
    await runtime.delete(KIND, made.id, back);
  });

  it("on an xCAT stack, a set whose connection names backend confluent goes to Confluent", async () => {
    await resetProcessContext();
    // The stack's own server is xCAT, which this set never reaches.
    const stack: Record<string, string> = {
      "xcat:url": "https://127.0.0.1:1/xcatws",
      "xcat:username": "root",
      "xcat:password": "cluster",
    };
    configureProcess((key) => stack[key]);
    try {
      const connection = { url: h.proxy.url, username: "root", password: "cluster", backend: "confluent" };
      const from = mark();
      const made = await created({ groups: ["cfconn"], rows: { cfc1: { ip: "10.8.0.1" } }, connection });
      expect(sentSince(from).filter((r) => !r.startsWith("GET "))).toEqual([
        "POST /nodegroups/",
        "POST /nodes/",
      ]);
      expect(held("cfc1", "net.ipv4_address")).toEqual({ value: "10.8.0.1" });
      await runtime.delete(KIND, made.id, made.outs);
      expect(h.emulator.state.nodeNames()).not.toContain("cfc1");
    } finally {
      await resetProcessContext();
      const config: Record<string, string> = {
        "xcat:backend": "confluent",
        "xcat:url": h.proxy.url,
        "xcat:username": "root",
        "xcat:password": "cluster",
      };
      configureProcess((key) => config[key]);
    }
  });

  it("fails preview on a value Confluent cannot hold, naming the node and column", async () => {
    const result = await runtime.check(
      KIND,
      {},
      {
        groups: ["cfbad"],
        csv: "node,mac\ncfb1,52:54:00:00:00:01|52:54:00:00:00:02\n",
      },
    );
    expect(result.failures?.[0]).toMatchObject({
      property: "csv",
      reason: expect.stringMatching(
        /^xcat:NodeSet 'cfb1': node 'cfb1', column 'mac' cannot be set on Confluent's net\.hwaddr/,
      ),
    });
  });
});
