/**
 * NodeSet on a real xCAT management node (issue #38's bar: "CRUD plus drift on a real xCAT 2.19"):
 * a rack of 5 nodes from CSV through the provider runtime as Pulumi's host calls it; an image
 * roll, 2 rows added, 1 row removed, a hand edit of one node's ip read back as that node's and put
 * back, a node deleted by hand read as missing and made again, and the set deleted. Every node's
 * values are checked on the management node, node by node.
 *
 * The requests are counted in the management node's Apache access log when XCAT_E2E_ACCESS_LOG
 * names it (on this machine's real xCAT: /var/log/apache2-xcat/xcatws_access.log): a common
 * change is 1 PUT of the set's noderange, rows added 1 POST each, a row removed 1 DELETE, a read 1
 * GET, the set's delete 1 DELETE. Without the log the values are still checked, not the counts.
 *
 * Skipped unless XCAT_E2E_URL names a management node (docs/real-xcat-e2e.md). The nodes are only
 * defined, changed, read and deleted: nothing powers or boots them (their BMCs are on 127.0.10.x
 * all the same). Name services are off (`xcat:nameServices: none`): makehosts would write this
 * machine's /etc/hosts; name services on a real node have their own test.
 */
import { readFileSync, statSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { XcatClient } from "../../src/client";
import { reportsOfOutputs } from "../../src/provider/node-set-reports";
import * as runtime from "../../src/provider/runtime";
import { configureForRealXcat, realXcatAdmin, realXcatPrefix, realXcatUrl } from "./real-xcat-support";

const KIND = "xcat:NodeSet";
const accessLog = process.env.XCAT_E2E_ACCESS_LOG;
const pad = (n: number) => String(n).padStart(2, "0");

/** Requests to /xcatws/nodes… written to the access log after `offset`, as "METHOD path". */
function nodeRequestsSince(offset: number): string[] {
  if (!accessLog) return [];
  const text = readFileSync(accessLog, "utf8").slice(offset);
  return [...text.matchAll(/"(GET|PUT|POST|DELETE) \/xcatws(\/nodes\/[^ ?"]*)/g)].map(
    (m) => `${m[1]} ${decodeURIComponent(m[2] ?? "")}`,
  );
}
const logOffset = () => (accessLog ? statSync(accessLog).size : 0);

describe.skipIf(!realXcatUrl)("a NodeSet on a real management node", () => {
  const p = realXcatPrefix();
  const node = (n: number) => `${p}r01n${pad(n)}`;
  const csv = (count: number, skip: readonly number[] = []) => {
    const lines = ["node,ip,mac,bmc"];
    for (let n = 1; n <= count; n += 1)
      if (!skip.includes(n)) lines.push(`${node(n)},10.0.1.${n},52:54:00:00:01:${pad(n)},127.0.10.${n}`);
    return `${lines.join("\n")}\n`;
  };
  const rack = (rows: string, provmethod: string) => ({
    groups: [`${p}rack1`, "all"],
    attributes: { mgt: "ipmi", arch: "x86_64", provmethod },
    csv: rows,
  });
  let admin: XcatClient;
  let id = "";
  let outs: Record<string, unknown> = {};

  async function checked(olds: Record<string, unknown>, news: Record<string, unknown>) {
    const result = await runtime.check(KIND, olds, news);
    if (result.failures?.length) throw new Error(`check failed: ${JSON.stringify(result.failures)}`);
    return result.inputs as Record<string, unknown>;
  }
  async function applied(olds: Record<string, unknown>, news: Record<string, unknown>) {
    const inputs = await checked(olds, news);
    expect((await runtime.diff(KIND, id, olds, inputs)).changes).toBe(true);
    return (await runtime.update(KIND, id, olds, inputs)).outs as Record<string, unknown>;
  }
  const held = async (n: number) => admin.nodes.get(node(n));

  beforeAll(async () => {
    admin = realXcatAdmin();
    await configureForRealXcat({ "xcat:nameServices": "none" });
  });

  afterAll(async () => {
    await admin?.nodes
      .delete([1, 2, 3, 4, 5, 6, 7].map(node).join(","), { ignoreMissing: true })
      .catch(() => undefined);
    await admin?.close();
  }, 600_000);

  it("creates each node with its own row, one POST each", async () => {
    const offset = logOffset();
    const inputs = await checked({}, rack(csv(5), "rocky9-netboot"));
    const created = await runtime.create(KIND, inputs);
    id = created.id;
    outs = created.outs as Record<string, unknown>;
    expect(id).toBe(`${p}r01n[01-05]`);
    if (accessLog)
      // (The creates run concurrently: their order in the log varies.)
      expect(
        nodeRequestsSince(offset)
          .filter((r) => !r.startsWith("GET"))
          .sort(),
      ).toEqual([1, 2, 3, 4, 5].map((n) => `POST /nodes/${node(n)}`));
    for (const n of [1, 2, 3, 4, 5])
      expect(await held(n)).toMatchObject({
        ip: `10.0.1.${n}`,
        mac: `52:54:00:00:01:${pad(n)}`,
        bmc: `127.0.10.${n}`,
        groups: `${p}rack1,all`,
        provmethod: "rocky9-netboot",
      });
    const perNode = reportsOfOutputs(outs);
    expect(perNode[node(4)]).toMatchObject({ ip: "10.0.1.4", bmc: "127.0.10.4" });
  }, 600_000);

  it("rolls the rack's image with 1 PUT of its noderange", async () => {
    const offset = logOffset();
    outs = await applied(outs, rack(csv(5), "rocky9-netboot-v2"));
    if (accessLog)
      expect(nodeRequestsSince(offset).filter((r) => !r.startsWith("GET"))).toEqual([
        `PUT /nodes/${p}r01n[01-05]`,
      ]);
    for (const n of [1, 2, 3, 4, 5]) expect((await held(n)).provmethod).toBe("rocky9-netboot-v2");
  }, 600_000);

  it("creates only the 2 rows added, and deletes only the 1 row removed", async () => {
    let offset = logOffset();
    outs = await applied(outs, rack(csv(7), "rocky9-netboot-v2"));
    if (accessLog)
      expect(
        nodeRequestsSince(offset)
          .filter((r) => !r.startsWith("GET"))
          .sort(),
      ).toEqual([`POST /nodes/${node(6)}`, `POST /nodes/${node(7)}`]);
    expect(await held(7)).toMatchObject({ ip: "10.0.1.7", provmethod: "rocky9-netboot-v2" });
    offset = logOffset();
    outs = await applied(outs, rack(csv(7, [3]), "rocky9-netboot-v2"));
    if (accessLog)
      expect(nodeRequestsSince(offset).filter((r) => !r.startsWith("GET"))).toEqual([
        `DELETE /nodes/${node(3)}`,
      ]);
    expect(await admin.nodes.list()).not.toContain(node(3));
    expect(await admin.nodes.list()).toContain(node(4));
    expect(outs.noderange).toBe(`${p}r01n[01-02,04-07]`);
  }, 600_000);

  it("reads a hand edit of one node's ip as that node's, in one GET, and puts it back", async () => {
    await admin.nodes.update(node(2), { ip: "10.9.9.9" });
    const offset = logOffset();
    const read = await runtime.read(KIND, id, outs);
    if (accessLog) expect(nodeRequestsSince(offset)).toHaveLength(1);
    const rows = (read.inputs as { rows: Record<string, Record<string, string>> }).rows;
    const recorded = outs.rows as Record<string, Record<string, string>>;
    expect(rows[node(2)]).toEqual({ ...recorded[node(2)], ip: "10.9.9.9" });
    for (const name of Object.keys(recorded).filter((n) => n !== node(2)))
      expect(rows[name], name).toEqual(recorded[name]);
    outs = await applied(read.props as Record<string, unknown>, rack(csv(7, [3]), "rocky9-netboot-v2"));
    expect((await held(2)).ip).toBe("10.0.1.2");
  }, 600_000);

  it("reads a node deleted by hand as missing, and makes it again", async () => {
    await admin.nodes.delete(node(5));
    const read = await runtime.read(KIND, id, outs);
    expect((read.inputs as { rows: Record<string, unknown> }).rows[node(5)]).toBeUndefined();
    outs = await applied(read.props as Record<string, unknown>, rack(csv(7, [3]), "rocky9-netboot-v2"));
    expect(await held(5)).toMatchObject({ ip: "10.0.1.5", provmethod: "rocky9-netboot-v2" });
  }, 600_000);

  it("deletes the set with 1 DELETE of its noderange", async () => {
    const offset = logOffset();
    await runtime.delete(KIND, id, outs);
    if (accessLog)
      expect(nodeRequestsSince(offset).filter((r) => !r.startsWith("GET"))).toEqual([
        `DELETE /nodes/${p}r01n[01-02,04-07]`,
      ]);
    const left = (await admin.nodes.list()).filter((n) => n.startsWith(`${p}r01n`));
    expect(left).toEqual([]);
  }, 600_000);
});
