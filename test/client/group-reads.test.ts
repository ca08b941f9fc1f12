/**
 * Group reads (a NodeSet's nodes read as one, issue #38) against the emulator: sets read together
 * share one GET of a compact noderange, a node missing inside a range leaves out only that node
 * (xCAT fails the whole read naming it, xcat-behavior.md 9.6, and the client asks again without
 * it), and after an image roll the nodes' reports are known without a read where the rule of
 * known-after-update.ts proves them, read back otherwise.
 */
import { Agent, type Dispatcher } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { XcatClient } from "../../src/client";
import type { RunningEmulator } from "../../src/emulator";
import { connect, emulator } from "./support/emulator";

const rackNames = (rack: number, size = 10) =>
  Array.from(
    { length: size },
    (_, n) => `gr${String(rack).padStart(2, "0")}n${String(n + 1).padStart(2, "0")}`,
  );

let emu: RunningEmulator;
let agent: Dispatcher;
/** Method and decoded path of every request the clients below sent. */
const sent: string[] = [];

beforeAll(async () => {
  emu = await emulator();
  const setup = connect(emu, { batching: false, maxConcurrency: 8 });
  for (let rack = 1; rack <= 4; rack += 1)
    await Promise.all(
      rackNames(rack).map((name, n) =>
        setup.nodes.create(name, {
          groups: `grack${rack},all`,
          provmethod: "img-a",
          ip: `10.7.${rack}.${n + 1}`,
        }),
      ),
    );
  await setup.close();
  agent = new Agent().compose((dispatch) => (options, handler) => {
    sent.push(`${options.method} ${decodeURIComponent(String(options.path))}`);
    return dispatch(options, handler);
  });
});

afterAll(async () => {
  await agent?.close();
  await emu?.close();
});

/** The requests `work` sent, token requests left out. */
async function during(client: XcatClient, work: () => Promise<unknown>): Promise<string[]> {
  await client.tokens.create().catch(() => undefined);
  const from = sent.length;
  await work();
  return sent.slice(from).filter((line) => !line.includes("/tokens"));
}

describe("group reads", () => {
  it("reads a lone set with one GET of its compact noderange", async () => {
    const client = connect(emu, { dispatcher: agent });
    let found = new Map<string, Record<string, string>>();
    const requests = await during(client, async () => {
      found = await client.nodes.getGroup(rackNames(2));
    });
    expect(requests).toEqual(["GET /xcatws/nodes/gr02n[01-10]"]);
    expect(found.get("gr02n07")?.ip).toBe("10.7.2.7");
    await client.close();
  });

  it("reads sets asked for together with one GET of their union, each getting only its own nodes", async () => {
    const client = connect(emu, { dispatcher: agent });
    let found: Map<string, Record<string, string>>[] = [];
    const requests = await during(client, async () => {
      found = await Promise.all([1, 2, 3, 4].map((rack) => client.nodes.getGroup(rackNames(rack))));
    });
    expect(requests).toEqual(["GET /xcatws/nodes/gr[01-04]n[01-10]"]);
    found.forEach((nodes, index) => {
      expect([...nodes.keys()]).toEqual(rackNames(index + 1));
      expect(nodes.get(rackNames(index + 1)[0] ?? "")?.groups).toBe(`grack${index + 1},all`);
    });
    await client.close();
  });

  it("leaves out a node missing inside a range, asking again without it", async () => {
    const client = connect(emu, { dispatcher: agent });
    await client.nodes.delete("gr03n04");
    let found = new Map<string, Record<string, string>>();
    const requests = await during(client, async () => {
      found = await client.nodes.getGroup(rackNames(3));
    });
    expect(requests).toEqual(["GET /xcatws/nodes/gr03n[01-10]", "GET /xcatws/nodes/gr03n[01-03,05-10]"]);
    expect(found.size).toBe(9);
    expect(found.has("gr03n04")).toBe(false);
    await client.close();
  });

  it("knows the nodes' reports after a provmethod roll without a read, and they are what a read returns", async () => {
    const client = connect(emu, { dispatcher: agent });
    const recorded = await client.nodes.getGroup(rackNames(1));
    let reported = new Map<string, Record<string, string>>();
    const requests = await during(client, async () => {
      await client.nodes.update("gr01n[01-10]", { provmethod: "img-b" });
      reported = await client.nodes.reportAfterUpdates(
        rackNames(1).map((name) => ({
          name,
          sent: { provmethod: "img-b" },
          before: { recorded: recorded.get(name), previous: { provmethod: "img-a" } },
        })),
      );
    });
    expect(requests).toEqual(["PUT /xcatws/nodes/gr01n[01-10]"]);
    const admin = connect(emu, { batching: false });
    expect(Object.fromEntries(reported)).toEqual(Object.fromEntries(await admin.nodes.getMany(rackNames(1))));
    await admin.close();
    await client.close();
  });

  it("reads the nodes back after a clear, all sets' read-backs in one GET", async () => {
    const client = connect(emu, { dispatcher: agent });
    const recorded = await client.nodes.getGroup([...rackNames(1), ...rackNames(2)]);
    let reported: Map<string, Record<string, string>>[] = [];
    const requests = await during(client, async () => {
      await Promise.all([1, 2].map((rack) => client.nodes.update(`gr0${rack}n[01-10]`, { ip: "" })));
      // Both sets' read-backs asked for together, as two updates the engine runs at once.
      reported = await Promise.all(
        [1, 2].map(async (rack) => {
          return client.nodes.reportAfterUpdates(
            rackNames(rack).map((name) => ({
              name,
              sent: { ip: "" },
              before: { recorded: recorded.get(name), previous: { ip: recorded.get(name)?.ip ?? "" } },
            })),
          );
        }),
      );
    });
    expect(requests.filter((line) => line.startsWith("PUT"))).toHaveLength(2);
    expect(requests.filter((line) => line.startsWith("GET"))).toEqual([
      "GET /xcatws/nodes/gr[01-02]n[01-10]",
    ]);
    for (const nodes of reported) {
      expect(nodes.size).toBe(10);
      for (const attributes of nodes.values()) expect(attributes.ip ?? "").toBe("");
    }
    await client.close();
  });
});
