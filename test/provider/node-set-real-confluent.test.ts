/**
 * NodeSet on a real Confluent 3.15 (issue #38 item 4, "the Confluent backend serves NodeSet too",
 * checked where the emulator cannot speak for the server): a rack of 5 nodes from CSV through
 * the provider runtime as Pulumi's host calls it; a value common to the set changed, a hand edit
 * of one node's ip read back as that node's and put back, a node deleted by hand made again, 2
 * rows added and 1 removed, and the set deleted with its groups. Every request the provider sends
 * passes a recording proxy in front of the server, so the counts are what reached Confluent; each
 * node's values are read back over Confluent's own API.
 *
 * Skipped unless CONFLUENT_E2E_URL, CONFLUENT_E2E_USERNAME and CONFLUENT_E2E_PASSWORD name a real
 * Confluent (docs/confluent.md); test/provider/confluent-node-set.test.ts runs the same steps and
 * more on the emulator in every `npm test`. Objects are named cfr*, and removed afterwards. The
 * nodes are only defined, changed, read and deleted; their BMCs are on 127.0.10.x all the same.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfluentClient } from "../../src/client/confluent";
import { reportsOfOutputs } from "../../src/provider/node-set-reports";
import { configureProcess, resetProcessContext } from "../../src/provider/process-context";
import * as runtime from "../../src/provider/runtime";
import { realConfluent } from "../client/support/confluent-target";
import { type RecordingProxy, recordingProxy } from "./confluent-harness";

const KIND = "xcat:NodeSet";
const real = realConfluent();
const pad = (n: number) => String(n).padStart(2, "0");
const node = (n: number) => `cfr1n${pad(n)}`;
const GROUPS = ["cfrrack1", "cfrcompute"];
/** The first five nodes as a noderange in a request's path. */
const FIRST_FIVE = [1, 2, 3, 4, 5].map(node).join(",");

/** The rack's inventory: node,ip,mac,bmc for nodes 1..count but `skip`. */
function csv(count: number, skip: readonly number[] = []): string {
  const lines = ["node,ip,mac,bmc"];
  for (let n = 1; n <= count; n += 1)
    if (!skip.includes(n)) lines.push(`${node(n)},10.7.1.${n},52:54:00:07:01:${pad(n)},127.0.10.${60 + n}`);
  return `${lines.join("\n")}\n`;
}
const rack = (inventory: string, usercomment = "rack one") => ({
  groups: [...GROUPS, "all"],
  attributes: { mgt: "ipmi", usercomment },
  csv: inventory,
});

describe.skipIf(!real)("a NodeSet on a real Confluent", () => {
  let proxy: RecordingProxy;
  let admin: ConfluentClient;
  let id = "";
  let outs: Record<string, unknown> = {};
  const mark = () => proxy.requests.length;
  const sentSince = (from: number) => proxy.requests.slice(from).map((r) => `${r.method} ${r.path}`);
  const writesSince = (from: number) => sentSince(from).filter((r) => !r.startsWith("GET "));
  /** An attribute as Confluent reports it for a node (`{ value }` for the node's own). */
  const held = async (name: string, attribute: string) => (await admin.nodes.get(name)).get(attribute);
  const ours = async () => (await admin.nodes.list("everything")).filter((n) => n.startsWith("cfr")).sort();
  const checked = async (olds: Record<string, unknown>, news: Record<string, unknown>) => {
    const result = await runtime.check(KIND, olds, news);
    expect(result.failures ?? []).toEqual([]);
    return result.inputs as Record<string, unknown>;
  };
  const applied = async (olds: Record<string, unknown>, news: Record<string, unknown>) => {
    const inputs = await checked(olds, news);
    expect((await runtime.diff(KIND, id, olds, inputs)).changes).toBe(true);
    return (await runtime.update(KIND, id, olds, inputs)).outs as Record<string, unknown>;
  };

  beforeAll(async () => {
    const { url, username, password } = real as NonNullable<typeof real>;
    proxy = await recordingProxy(url);
    admin = new ConfluentClient({ url, username, password });
    const left = await ours();
    if (left.length > 0) throw new Error(`${url} already holds ${left.join(",")}: remove them first`);
    await resetProcessContext();
    const config: Record<string, string> = {
      "xcat:backend": "confluent",
      "xcat:url": proxy.url,
      "xcat:username": username,
      "xcat:password": password,
    };
    configureProcess((key) => config[key]);
  });

  afterAll(async () => {
    for (const name of await ours().catch(() => [])) await admin.nodes.delete(name).catch(() => {});
    for (const group of GROUPS) await admin.groups.delete(group).catch(() => {});
    await admin?.close();
    await resetProcessContext();
    await proxy?.close();
  });

  it("creates each node with its own POST and its own row, and reads the set back", async () => {
    const from = mark();
    const made = await runtime.create(KIND, await checked({}, rack(csv(5))));
    id = made.id;
    outs = made.outs as Record<string, unknown>;
    const writes = writesSince(from);
    expect(writes.filter((r) => r === "POST /nodes/")).toHaveLength(5);
    expect(writes.filter((r) => r.startsWith("POST /nodegroups/"))).toHaveLength(2);
    expect(writes.filter((r) => !r.startsWith("POST "))).toEqual([]);
    expect(id).toBe("cfr1n[01-05]");
    expect(await ours()).toEqual([1, 2, 3, 4, 5].map(node));
    expect(await held(node(3), "net.ipv4_address")).toEqual({ value: "10.7.1.3" });
    expect(await held(node(3), "net.hwaddr")).toEqual({ value: "52:54:00:07:01:03" });
    expect(await held(node(3), "hardwaremanagement.manager")).toEqual({ value: "127.0.10.63" });
    expect(await held(node(3), "info.note")).toEqual({ value: "rack one" });
    expect((await held(node(3), "groups"))?.value).toEqual([...GROUPS, "everything"]);
    const reports = reportsOfOutputs(outs);
    expect(reports[node(5)]).toMatchObject({ ip: "10.7.1.5", bmc: "127.0.10.65", mgt: "ipmi" });
    // A refresh right after finds nothing to change.
    const read = await runtime.read(KIND, id, outs);
    const again = await checked(read.props as Record<string, unknown>, rack(csv(5)));
    expect((await runtime.diff(KIND, id, read.props, again)).changes).toBe(false);
  });

  it("changes a value common to the set with one PUT of its noderange", async () => {
    const from = mark();
    outs = await applied(outs, rack(csv(5), "rack one, rolled"));
    expect(sentSince(from)).toEqual([`PUT /noderange/${FIRST_FIVE}/attributes/current`]);
    for (let n = 1; n <= 5; n += 1)
      expect(await held(node(n), "info.note")).toEqual({ value: "rack one, rolled" });
  });

  it("reads a hand edit of one node's ip in one GET as that node's row, and puts it back with one PUT", async () => {
    await admin.nodes.update(node(4), { "net.ipv4_address": "10.7.9.99" });
    const from = mark();
    const read = await runtime.read(KIND, id, outs);
    expect(sentSince(from)).toEqual([`GET /noderange/${FIRST_FIVE}/attributes/current`]);
    const rows = (read.inputs as { rows: Record<string, Record<string, string>> }).rows;
    expect(rows[node(4)]?.ip).toBe("10.7.9.99");
    expect(rows[node(3)]?.ip).toBe("10.7.1.3");
    const fix = mark();
    outs = await applied(read.props as Record<string, unknown>, rack(csv(5), "rack one, rolled"));
    expect(sentSince(fix)).toEqual([`PUT /noderange/${node(4)}/attributes/current`]);
    expect(await held(node(4), "net.ipv4_address")).toEqual({ value: "10.7.1.4" });
  });

  it("a node deleted by hand leaves the rows on refresh, and up makes only it again", async () => {
    await admin.nodes.delete(node(2));
    const read = await runtime.read(KIND, id, outs);
    expect(Object.keys((read.inputs as { rows: object }).rows).sort()).toEqual([1, 3, 4, 5].map(node));
    const from = mark();
    outs = await applied(read.props as Record<string, unknown>, rack(csv(5), "rack one, rolled"));
    expect(writesSince(from)).toEqual(["POST /nodes/"]);
    expect(await held(node(2), "net.hwaddr")).toEqual({ value: "52:54:00:07:01:02" });
    expect(await held(node(2), "info.note")).toEqual({ value: "rack one, rolled" });
  });

  it("2 rows added are 2 POSTs, 1 row removed is 1 DELETE of that node", async () => {
    const from = mark();
    outs = await applied(outs, rack(csv(7, [5]), "rack one, rolled"));
    expect(writesSince(from).sort()).toEqual([
      `DELETE /noderange/${node(5)}`,
      "POST /nodes/",
      "POST /nodes/",
    ]);
    expect(await ours()).toEqual([1, 2, 3, 4, 6, 7].map(node));
    expect(await held(node(7), "net.ipv4_address")).toEqual({ value: "10.7.1.7" });
    expect(outs.noderange).toBe("cfr1n[01-04,06-07]");
  });

  it("deletes the set with one DELETE of its noderange, and its groups with it", async () => {
    const from = mark();
    await runtime.delete(KIND, id, outs);
    expect(writesSince(from).filter((r) => r.startsWith("DELETE /noderange/"))).toEqual([
      `DELETE /noderange/${[1, 2, 3, 4, 6, 7].map(node).join(",")}`,
    ]);
    expect(await ours()).toEqual([]);
    expect((await admin.groups.list()).filter((g) => g.startsWith("cfr"))).toEqual([]);
  });
});
