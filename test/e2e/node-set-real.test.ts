/**
 * NodeSet through the real engine on a real xCAT management node (issue #38's bar: "CRUD plus
 * drift on a real xCAT 2.19 beside the project"). The TypeScript program of node-set.test.ts (two
 * racks as two NodeSets from CSV inventories), from the packed package, with 3 nodes per rack
 * (each create is one mkdef on the management node, seconds each): up makes every node from its
 * row; rack 2's image roll is 1 PUT of its noderange; a hand edit of one node's ip is named by
 * `pulumi-xcat drift` as that node and attribute, and `up --refresh` puts it back; destroy leaves
 * none of the nodes.
 *
 * Skipped unless XCAT_E2E_URL names a management node (docs/real-xcat-e2e.md): on the emulator the
 * same steps run at 20 nodes per rack in node-set.test.ts. Requests are counted in the management
 * node's Apache access log when XCAT_E2E_ACCESS_LOG names it (as node-set-real-xcat.test.ts does).
 * Nothing powers or boots the nodes; their BMCs are on 127.0.10.x all the same. Name services follow
 * XCAT_E2E_NAME_SERVICES (a management node without a named fails every makedns).
 */
import { readFileSync, statSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PulumiWorkspace } from "./support/pulumi-workspace";
import { type E2eTarget, realNode, startTarget } from "./support/target";

const accessLog = process.env.XCAT_E2E_ACCESS_LOG;
const logOffset = () => (accessLog ? statSync(accessLog).size : 0);
/** Writes to /xcatws/nodes… in the access log after `offset`, as "METHOD path". */
function nodeWritesSince(offset: number): string[] {
  if (!accessLog) return [];
  const text = readFileSync(accessLog, "utf8").slice(offset);
  return [...text.matchAll(/"(PUT|POST|DELETE) \/xcatws(\/nodes\/[^ ?"]*)/g)].map(
    (m) => `${m[1]} ${decodeURIComponent(m[2] ?? "")}`,
  );
}

const pad = (n: number) => String(n).padStart(2, "0");
/** Nodes per rack: each create is one mkdef on the management node, seconds each. */
const PER_RACK = 3;
const rackNodes = Array.from({ length: PER_RACK }, (_, i) => i + 1);

describe.skipIf(!realNode)("two NodeSets from CSV on a real management node, through the engine", () => {
  let target: E2eTarget;
  let workspace: PulumiWorkspace;
  let p = "";
  const node = (rack: number, n: number) => `${p}r0${rack}n${pad(n)}`;
  const everyNode = () => [1, 2].flatMap((rack) => rackNodes.map((n) => node(rack, n)));
  const rackCsv = (rack: number) =>
    [
      "node,ip,mac,bmc",
      ...rackNodes.map(
        (n) => `${node(rack, n)},10.0.${rack}.${n},52:54:00:00:0${rack}:${pad(n)},127.0.10.${rack * 10 + n}`,
      ),
      "",
    ].join("\n");
  const drift = () =>
    workspace.exec(
      "bash",
      ["-c", 'PATH="$(npm prefix)/node_modules/.bin:$PATH" exec pulumi-xcat drift', "drift"],
      { allowFailure: true },
    );

  beforeAll(async () => {
    target = await startTarget();
    p = target.prefix;
    workspace = await PulumiWorkspace.create({
      programDir: resolve(import.meta.dirname, "programs", "node-set-ts"),
      sandboxDir: inject("e2eSandbox"),
    });
    for (const rack of [1, 2])
      await writeFile(join(workspace.programDir, "inventory", `rack${rack}.csv`), rackCsv(rack));
    await target.configure(workspace);
  });

  afterAll(async () => {
    await target?.admin.nodes.delete(everyNode().join(","), { ignoreMissing: true }).catch(() => undefined);
    await workspace?.dispose();
    await target?.close();
  }, 600_000);

  it("up makes every node of both racks from its own row", async () => {
    await workspace.up();
    const held = await target.admin.nodes.getMany(everyNode().join(","));
    expect([...held.keys()].sort()).toEqual(everyNode().sort());
    expect(held.get(node(1, 2))).toMatchObject({
      ip: "10.0.1.2",
      mac: "52:54:00:00:01:02",
      bmc: "127.0.10.12",
    });
    expect(held.get(node(2, 3))).toMatchObject({ ip: "10.0.2.3", bmc: "127.0.10.23", mgt: "ipmi" });
    expect(held.get(node(2, 3))?.groups).toBe("rack2,compute,all");
  }, 900_000);

  it("rolls rack 2's image with 1 PUT of its noderange", async () => {
    await workspace.setConfig("rack2Image", "rocky9-x86_64-netboot-compute-v2");
    const offset = logOffset();
    await workspace.up();
    if (accessLog) expect(nodeWritesSince(offset)).toEqual([`PUT /nodes/${p}r02n[01-03]`]);
    const held = await target.admin.nodes.getMany(everyNode().join(","));
    for (const n of rackNodes)
      expect(held.get(node(2, n))?.provmethod).toBe("rocky9-x86_64-netboot-compute-v2");
    expect(held.get(node(1, 1))?.provmethod).toBe("rocky9-x86_64-netboot-compute");
  }, 900_000);

  it("drift names a hand edit of one node's ip as that node's, with no write; up --refresh puts it back", async () => {
    await target.admin.nodes.update(node(1, 2), { ip: "10.9.9.9" });
    const offset = logOffset();
    const found = await drift();
    expect(found.exitCode, found.stdout + found.stderr).toBe(3);
    expect(found.stdout).toContain(`~ ip (NodeSet rack1) changed by hand on ${node(1, 2)} (1 node)\n`);
    expect(found.stdout).not.toContain(node(1, 3));
    if (accessLog) expect(nodeWritesSince(offset)).toEqual([]);
    await workspace.up(["--refresh"]);
    if (accessLog) expect(nodeWritesSince(offset)).toEqual([`PUT /nodes/${node(1, 2)}`]);
    expect((await target.admin.nodes.get(node(1, 2))).ip).toBe("10.0.1.2");
  }, 900_000);

  it("destroy leaves none of the nodes", async () => {
    await workspace.destroy();
    const left = (await target.admin.nodes.list()).filter((name) => everyNode().includes(name));
    expect(left).toEqual([]);
  }, 900_000);
});
