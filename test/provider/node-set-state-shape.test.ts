/**
 * A NodeSet's state keeps what xCAT reports per node compactly (node-set-reports.ts: the values
 * every node reports alike once in `sharedAttributes`, per node only what neither that nor the
 * node's row in `rows` says, in `nodeAttributes`), and states written before that (each node's
 * report whole in `nodeAttributes` and no `sharedAttributes`; or `sharedAttributes` and per node
 * every other value, its row's too) keep working: a no-change preview, a refresh and an update
 * from them, against a fresh in-process emulator.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportsOfOutputs } from "../../src/provider/node-set-reports";
import { type ProviderHarness, providerHarness, runtime } from "./support";

const KIND = "xcat:NodeSet";

let h: ProviderHarness;
const routes = () => ({ ...h.emulator.stats().byRoute });
function since(before: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(h.emulator.stats().byRoute)
      .map(([route, count]) => [route, count - (before[route] ?? 0)] as const)
      .filter(([, count]) => count > 0),
  );
}

const rack = (provmethod: string) => ({
  groups: ["shape", "all"],
  attributes: { mgt: "ipmi", arch: "x86_64", provmethod },
  csv: "node,ip,bmc\nsh01,10.7.0.1,127.0.10.71\nsh02,10.7.0.2,127.0.10.72\nsh03,10.7.0.3,127.0.10.73\n",
});

async function checked(olds: Record<string, unknown>, news: Record<string, unknown>) {
  const result = await runtime.check(KIND, olds, news);
  if (result.failures?.length) throw new Error(`check failed: ${JSON.stringify(result.failures)}`);
  return result.inputs as Record<string, unknown>;
}

/** The outputs as the provider before the compact form wrote them: each node's report whole. */
function writtenWhole(outputs: Record<string, unknown>): Record<string, unknown> {
  const { sharedAttributes: _shared, ...rest } = outputs;
  return { ...rest, nodeAttributes: reportsOfOutputs(outputs) };
}

/**
 * The outputs as the provider wrote them with `sharedAttributes` but before the rows' values were
 * left out of `nodeAttributes`: per node every value not shared, its row's too.
 */
function writtenWithRowValues(outputs: Record<string, unknown>): Record<string, unknown> {
  const shared = outputs.sharedAttributes as Record<string, string>;
  const nodeAttributes = Object.fromEntries(
    Object.entries(reportsOfOutputs(outputs)).map(([node, values]) => [
      node,
      Object.fromEntries(Object.entries(values).filter(([name]) => !(name in shared))),
    ]),
  );
  return { ...outputs, nodeAttributes };
}

beforeAll(async () => {
  h = await providerHarness();
});

afterAll(async () => {
  await h?.close();
});

describe("NodeSet state shape", () => {
  let id = "";
  let outs: Record<string, unknown> = {};

  it("records once what all nodes report alike, per node only its own values", async () => {
    const created = await h.createChecked(KIND, rack("img-a"));
    id = created.id;
    outs = created.outs;
    expect(outs.sharedAttributes).toMatchObject({
      groups: "shape,all",
      mgt: "ipmi",
      arch: "x86_64",
      provmethod: "img-a",
    });
    // Each node reports its row's ip and bmc as the row holds them: nothing of its own is left.
    expect(outs.rows).toEqual({
      sh01: { bmc: "127.0.10.71", ip: "10.7.0.1" },
      sh02: { bmc: "127.0.10.72", ip: "10.7.0.2" },
      sh03: { bmc: "127.0.10.73", ip: "10.7.0.3" },
    });
    expect(outs.nodeAttributes).toEqual({ sh01: {}, sh02: {}, sh03: {} });
    // Expanded, each node's report is what a read of that node gives, with no password.
    for (const node of ["sh01", "sh02", "sh03"]) {
      const held = await h.admin.nodes.get(node);
      expect(reportsOfOutputs(outs)[node]).toEqual(
        Object.fromEntries(Object.entries(held).filter(([name]) => !/password/i.test(name))),
      );
    }
  });

  it("sees no change from a state written whole, as from its own", async () => {
    const old = writtenWhole(outs);
    expect(old).not.toHaveProperty("sharedAttributes");
    const inputs = await checked(old, rack("img-a"));
    expect((await runtime.diff(KIND, id, old, inputs)).changes).toBe(false);
  });

  it("reads a state written with the rows' values in nodeAttributes the same, and refreshes it to the compact form", async () => {
    const old = writtenWithRowValues(outs);
    expect((old.nodeAttributes as Record<string, unknown>).sh02).toEqual({
      bmc: "127.0.10.72",
      ip: "10.7.0.2",
    });
    expect(reportsOfOutputs(old)).toEqual(reportsOfOutputs(outs));
    const inputs = await checked(old, rack("img-a"));
    expect((await runtime.diff(KIND, id, old, inputs)).changes).toBe(false);
    const props = (await runtime.read(KIND, id, old)).props as Record<string, unknown>;
    expect(props.nodeAttributes).toEqual(outs.nodeAttributes);
  });

  it("shows a hand edit and a hand clear per node after refresh: in rows, and expanded in the report", async () => {
    await h.admin.nodes.update("sh02", { ip: "10.7.0.22" });
    await h.admin.nodes.update("sh03", { bmc: "" });
    const read = await runtime.read(KIND, id, outs);
    const props = read.props as Record<string, Record<string, Record<string, string>>>;
    expect(props.rows?.sh02).toEqual({ bmc: "127.0.10.72", ip: "10.7.0.22" });
    expect(props.rows?.sh03).toEqual({ ip: "10.7.0.3" });
    const reports = reportsOfOutputs(props);
    expect(reports.sh02?.ip).toBe("10.7.0.22");
    expect(reports.sh03).not.toHaveProperty("bmc");
    for (const node of ["sh01", "sh02", "sh03"]) {
      const held = await h.admin.nodes.get(node);
      expect(reports[node]).toEqual(
        Object.fromEntries(Object.entries(held).filter(([name]) => !/password/i.test(name))),
      );
    }
    // up restores both from the refreshed state; the report again is what xCAT holds.
    const inputs = await checked(props, rack("img-a"));
    expect((await runtime.diff(KIND, id, props, inputs)).changes).toBe(true);
    const restored = (await runtime.update(KIND, id, props, inputs)).outs as Record<string, unknown>;
    expect(restored.nodeAttributes).toEqual({ sh01: {}, sh02: {}, sh03: {} });
    expect(reportsOfOutputs(restored)).toEqual(
      reportsOfOutputs((await runtime.read(KIND, id, restored)).props),
    );
    expect(reportsOfOutputs(restored).sh03?.bmc).toBe("127.0.10.73");
  });

  it("refreshes a state written whole into the compact form, inputs without the reports", async () => {
    const old = writtenWhole(outs);
    const read = await runtime.read(KIND, id, old);
    const props = read.props as Record<string, unknown>;
    expect(props.sharedAttributes).toEqual(outs.sharedAttributes);
    expect(props.nodeAttributes).toEqual(outs.nodeAttributes);
    expect(reportsOfOutputs(props)).toEqual(old.nodeAttributes);
    for (const key of ["nodeAttributes", "sharedAttributes", "noderange"])
      expect(read.inputs).not.toHaveProperty(key);
  });

  it("rolls from a state written whole with 1 PUT and no read-back, reporting what a read returns", async () => {
    const old = writtenWhole(outs);
    const inputs = await checked(old, rack("img-b"));
    expect((await runtime.diff(KIND, id, old, inputs)).changes).toBe(true);
    const before = routes();
    const rolled = (await runtime.update(KIND, id, old, inputs)).outs as Record<string, unknown>;
    const sent = since(before);
    // The recorded reports (whole) with the PUT's value are what xCAT reports: nothing read back.
    expect(sent["PUT /nodes/{noderange}"]).toBe(1);
    expect(sent["GET /nodes/{noderange}"]).toBeUndefined();
    expect(rolled.sharedAttributes).toMatchObject({ provmethod: "img-b" });
    const read = await runtime.read(KIND, id, rolled);
    expect(reportsOfOutputs(rolled)).toEqual(reportsOfOutputs(read.props));
    expect(reportsOfOutputs(rolled).sh02).toMatchObject({ ip: "10.7.0.2", provmethod: "img-b" });
  });
});
