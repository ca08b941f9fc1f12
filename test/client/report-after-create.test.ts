/**
 * What the client reports for a created node is what the server holds for that node (issue #27
 * item 2). A group value of the form `|pattern|replacement|` or `/pattern/replacement/` is
 * expanded per node name by xCAT (perl-xCAT/xCAT/Table.pm transRegexAttrs, master 2647-2700,
 * applied to every value getNodeAttribs returns, 2800-2815), so two nodes with the same groups and
 * the same attribute names get different values from it and cannot share a report.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { XcatClient } from "../../src/client";
import type { RunningEmulator } from "../../src/emulator";
import { connect, emulator } from "./support/emulator";

let emu: RunningEmulator;
let client: XcatClient;

beforeEach(async () => {
  emu = await emulator();
  client = connect(emu);
});

afterEach(async () => {
  await client.close();
  await emu.close();
});

const NODES = ["r03n01", "r03n02", "r03n03", "r03n04", "r03n05"];

async function createAll(sent: (name: string) => Record<string, string>): Promise<Record<string, string>[]> {
  return Promise.all(
    NODES.map(async (name) => {
      await client.nodes.create(name, sent(name));
      return client.nodes.reportAfterCreate(name, sent(name));
    }),
  );
}

describe("reportAfterCreate", () => {
  it("reports each node's own expansion of a group's regex ip and bmc", async () => {
    await client.groups.update("rack03", {
      mgt: "ipmi",
      ip: "|\\D+(\\d+)\\D+(\\d+)|10.3.($1+0).($2+100)|",
      bmc: "|\\D+(\\d+)\\D+(\\d+)|10.13.($1+0).($2+100)|",
    });
    const reports = await createAll(() => ({ groups: "rack03,all" }));
    const held = await client.nodes.getMany(NODES);
    expect(reports.map((report) => report.ip)).toEqual([
      "10.3.3.101",
      "10.3.3.102",
      "10.3.3.103",
      "10.3.3.104",
      "10.3.3.105",
    ]);
    expect(reports).toEqual(NODES.map((name) => held.get(name)));
  });

  it("reports each node's own value when the node's second group holds the regex", async () => {
    await client.groups.update("plain", { os: "rocky9" });
    await client.groups.update("addressed", { ip: "|r(\\d+)n(\\d+)|10.3.($1+0).($2+0)|" });
    const reports = await createAll((name) => ({ groups: "plain,addressed", usercomment: name }));
    const held = await client.nodes.getMany(NODES);
    expect(new Set(reports.map((report) => report.ip)).size).toBe(NODES.length);
    expect(reports).toEqual(NODES.map((name) => held.get(name)));
  });

  it("still answers nodes of one shape from one read when no group value is per node", async () => {
    await client.groups.update("flat", { os: "rocky9", netboot: "xnba" });
    // The first create of a shape is read back; the rest are known.
    await client.nodes.create("warm", { groups: "flat", usercomment: "warm" });
    await client.nodes.reportAfterCreate("warm", { groups: "flat", usercomment: "warm" });
    const before = emu.stats().total;
    const reports = await createAll((name) => ({ groups: "flat", usercomment: name }));
    expect(emu.stats().total - before).toBe(NODES.length); // the POSTs only
    const held = await client.nodes.getMany(NODES);
    expect(reports).toEqual(NODES.map((name) => held.get(name)));
  });

  it("answers creates of a new shape that finish while its first read-back is under way from that one read", async () => {
    // A server with a real management node's cost per request (xcat-behavior.md section 10; the
    // emulator counts a request when it arrives and answers after its cost). Issue #25: a real
    // xCAT 2.19 whose mkdef took 10-13 s read back 5-7 more nodes of a shape each time its first
    // read-back was still under way.
    const slow = await emulator({ costModel: "xcat" });
    const slowClient = connect(slow);
    try {
      await slowClient.groups.update("flat", { os: "rocky9", netboot: "xnba" });
      for (const name of NODES) await slowClient.nodes.create(name, { groups: "flat", usercomment: name });
      const nodeReads = () => slow.stats().byRoute["GET /nodes/{noderange}"] ?? 0;
      const before = nodeReads();
      const [firstName = "", ...others] = NODES;
      const first = slowClient.nodes.reportAfterCreate(firstName, { groups: "flat", usercomment: firstName });
      while (nodeReads() === before) await new Promise((resolve) => setTimeout(resolve, 5));
      const rest = others.map((name) =>
        slowClient.nodes.reportAfterCreate(name, { groups: "flat", usercomment: name }),
      );
      const reports = await Promise.all([first, ...rest]);
      expect(nodeReads() - before).toBe(1);
      const held = await slowClient.nodes.getMany(NODES);
      expect(reports).toEqual(NODES.map((name) => held.get(name)));
    } finally {
      await slowClient.close();
      await slow.close();
    }
  });
});
