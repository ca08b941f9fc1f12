/**
 * Issue #38's bar for NodeSet through the real engine, from the packed package, on the emulator:
 * a TypeScript program (xcat.NodeSet, dynamic provider) and a YAML program (xcat:index:NodeSet,
 * native provider), each 2 racks x 20 nodes as two NodeSets with CSV rows read from inventory
 * files. One stack per language; the steps reuse it: up right per node; a rack's image roll = 1
 * PUT of its noderange; 2 rows added = 2 creates; 1 row removed = 1 DELETE; a hand edit of one
 * node's ip shows in `preview --refresh --diff` as that node and attribute, and up restores it; a
 * malformed MAC in the inventory fails preview naming the resource, the file line and the column.
 * Item 4 on the same stacks: `pulumi-xcat review` of the roll's preview names the rack's 20 nodes
 * by noderange, and (TypeScript) the policy pack refuses a Node holding a NodeSet row's ip.
 * In TypeScript the stack then moves a node from rack 1's rows to a `Node` of its own and back
 * (issue #38 item 6): the set's `release` lets the row go without a DELETE, the Node's `adopt`
 * takes the node with a read, and its `retainOnDelete` makes the engine forget it on the way back
 * without a delete (pulumi v3.259.0 pkg/resource/deploy/step.go:661); no write reaches xCAT.
 * Requests are counted by the emulator's stats (what xCAT does with a noderange in a PUT or
 * DELETE path: xcat-behavior.md §1.3 and §9.6).
 */
import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { XcatClient } from "../../src/client";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { PulumiWorkspace } from "./support/pulumi-workspace";

const pad = (n: number) => String(n).padStart(2, "0");

/** Rack 1's inventory with nodes 1..count, leaving out `skip` (BMCs on 127.0.10.x, loopback). */
function rack1Csv(count: number, skip: readonly number[] = []): string {
  const lines = ["node,ip,mac,bmc"];
  for (let n = 1; n <= count; n += 1)
    if (!skip.includes(n)) lines.push(`r01n${pad(n)},10.0.1.${n},52:54:00:00:01:${pad(n)},127.0.10.${n}`);
  return `${lines.join("\n")}\n`;
}

const LANGUAGES = [
  { language: "TypeScript", program: "node-set-ts" },
  { language: "YAML", program: "node-set-yaml" },
] as const;

describe.each(LANGUAGES)("two racks as two NodeSets from CSV ($language)", ({ program }) => {
  let emulator: RunningEmulator;
  let workspace: PulumiWorkspace;
  let admin: XcatClient;
  const writes = () => {
    const byRoute = emulator.stats().byRoute;
    return {
      post: byRoute["POST /nodes/{noderange}"] ?? 0,
      put: byRoute["PUT /nodes/{noderange}"] ?? 0,
      delete: byRoute["DELETE /nodes/{noderange}"] ?? 0,
    };
  };
  const sinceThen = (before: ReturnType<typeof writes>) => {
    const now = writes();
    return { post: now.post - before.post, put: now.put - before.put, delete: now.delete - before.delete };
  };
  const inventory = () => join(workspace.programDir, "inventory", "rack1.csv");
  /**
   * Rack 2's image roll, run once for the two steps about it: `up --json` previews first, and that
   * preview is the plan the review reads, so the review and the roll are one engine run (the
   * writes are counted from before it; its preview sends none).
   */
  let rackTwoRoll: Promise<{ before: ReturnType<typeof writes>; plan: string }> | undefined;
  const rollRackTwo = () => {
    rackTwoRoll ??= (async () => {
      await workspace.setConfig("rack2Image", "rocky9-x86_64-netboot-compute-v2");
      const before = writes();
      const { previewJson } = await workspace.upAfterJsonPreview();
      return { before, plan: previewJson };
    })();
    return rackTwoRoll;
  };

  beforeAll(async () => {
    emulator = await startEmulator();
    const sandbox = inject("e2eSandbox");
    workspace = await PulumiWorkspace.create({
      programDir: resolve(import.meta.dirname, "programs", program),
      sandboxDir: sandbox,
      env: {
        // pulumi-resource-xcat from the installed package, as `npm install` puts it on a project's PATH.
        PATH: `${join(sandbox, "node_modules", ".bin")}:${process.env.PATH ?? ""}`,
        XCAT_URL: emulator.url,
        XCAT_USERNAME: "root",
        XCAT_PASSWORD: EMULATOR_DEFAULT_PASSWORD,
      },
    });
    admin = new XcatClient({ url: emulator.url, username: "root", password: EMULATOR_DEFAULT_PASSWORD });
  });

  afterAll(async () => {
    await admin?.close();
    await workspace?.dispose();
    await emulator?.close();
  });

  it("up creates 40 nodes, each with its own row", async () => {
    await workspace.up();
    expect(writes()).toEqual({ post: 40, put: 0, delete: 0 });
    const nodes = await admin.nodes.getMany("r01n[01-20],r02n[01-20]");
    expect(nodes.size).toBe(40);
    expect(nodes.get("r01n07")).toMatchObject({
      ip: "10.0.1.7",
      mac: "52:54:00:00:01:07",
      bmc: "127.0.10.7",
    });
    expect(nodes.get("r02n13")).toMatchObject({ ip: "10.0.2.13", groups: "rack2,compute,all" });
    expect(await workspace.outputs()).toEqual({ rack1Nodes: "r01n[01-20]", rack2Nodes: "r02n[01-20]" });
  });

  it("pulumi-xcat review of rack 2's image roll names r02n[01-20], 20 nodes", async () => {
    const plan = join(workspace.programDir, "roll-plan.json");
    await writeFile(plan, (await rollRackTwo()).plan);
    const review = await workspace.exec("pulumi-xcat", ["review", plan, "--fail-on", "delete"], {
      allowFailure: true,
    });
    expect(review.exitCode, review.stdout + review.stderr).toBe(0);
    expect(review.stdout.split("\n")).toContain(
      "~ 20 nodes r02n[01-20] (NodeSet rack2): provmethod: rocky9-x86_64-netboot-compute → rocky9-x86_64-netboot-compute-v2",
    );
    expect(review.stdout).not.toMatch(/NodeSet rack1|\d NodeSets?\b/);
  });

  it("rolls rack 2's image with exactly 1 PUT", async () => {
    const { before } = await rollRackTwo();
    expect(sinceThen(before)).toEqual({ post: 0, put: 1, delete: 0 });
    const rack2 = await admin.nodes.getMany("r02n[01-20]");
    expect([...rack2.values()].every((node) => node.provmethod === "rocky9-x86_64-netboot-compute-v2")).toBe(
      true,
    );
    expect((await admin.nodes.get("r01n01")).provmethod).toBe("rocky9-x86_64-netboot-compute");
  });

  it("creates only the 2 rows added to the inventory", async () => {
    await writeFile(inventory(), rack1Csv(22));
    const before = writes();
    await workspace.up();
    expect(sinceThen(before)).toEqual({ post: 2, put: 0, delete: 0 });
    expect((await admin.nodes.get("r01n22")).ip).toBe("10.0.1.22");
  });

  it("deletes the 1 row removed with 1 DELETE", async () => {
    await writeFile(inventory(), rack1Csv(22, [5]));
    const before = writes();
    await workspace.up();
    expect(sinceThen(before)).toEqual({ post: 0, put: 0, delete: 1 });
    const left = (await admin.nodes.list()).filter((node) => node.startsWith("r01n"));
    expect(left).toHaveLength(21);
    expect(left).not.toContain("r01n05");
  });

  it("shows a hand edit of one node's ip in preview --refresh --diff as that node and attribute; up restores it", async () => {
    expect(await readFile(inventory(), "utf8")).toContain("r01n03,10.0.1.3,");
    await admin.nodes.update("r01n03", { ip: "10.9.9.9" });
    // `pulumi-xcat drift` (a refresh in preview mode, no write) names that node and attribute.
    const beforeDrift = writes();
    const drift = await workspace.exec(
      "bash",
      ["-c", 'PATH="$(npm prefix)/node_modules/.bin:$PATH" exec pulumi-xcat drift', "drift"],
      { allowFailure: true },
    );
    expect(drift.exitCode, drift.stdout + drift.stderr).toBe(3);
    expect(drift.stdout).toContain("~ ip (NodeSet rack1) changed by hand on r01n03 (1 node)\n");
    expect(drift.stdout).not.toMatch(/r01n04|rack2/);
    expect(sinceThen(beforeDrift)).toEqual({ post: 0, put: 0, delete: 0 });
    // One engine run: up --refresh --diff shows its preview (what a reviewer sees) before it writes.
    const before = writes();
    const { preview } = await workspace.upAfterPreview(["--refresh", "--diff"]);
    const shown = preview.stdout; // the workspace runs pulumi with --color never
    // The diff names rows, the node and its ip, from what xCAT holds to what the inventory says.
    expect(shown).toMatch(/~ rows\s*:[\s\S]*~ r01n03\s*:[\s\S]*~ ip\s*: "10\.9\.9\.9" => "10\.0\.1\.3"/);
    expect(shown).not.toMatch(/~ r01n04\s*:/);
    expect(sinceThen(before)).toEqual({ post: 0, put: 1, delete: 0 });
    expect((await admin.nodes.get("r01n03")).ip).toBe("10.0.1.3");
  });

  it.runIf(program === "node-set-ts")(
    "the policy pack refuses a Node holding a NodeSet row's ip, naming both; nothing is sent",
    async () => {
      const pack = join(inject("e2eSandbox"), "node_modules/pulumi-xcat/policy-pack");
      await workspace.setConfig("duplicateIp", "10.0.1.3");
      const before = writes();
      const refused = await workspace.run(["preview", "--policy-pack", pack], { allowFailure: true });
      await workspace.removeConfig("duplicateIp");
      const output = (refused.stdout + refused.stderr).replace(/\s+/g, " ");
      expect(refused.exitCode, output).not.toBe(0);
      expect(output).toContain("[mandatory] unique-node-ip");
      // The engine hands the resources in its own order: either may be named first.
      expect(output).toMatch(
        /ip 10\.0\.1\.3 is given to both (NodeSet "rack1" row r01n03 and Node "cn07" \(node cn07\)|Node "cn07" \(node cn07\) and NodeSet "rack1" row r01n03);/,
      );
      expect(sinceThen(before)).toEqual({ post: 0, put: 0, delete: 0 });
    },
  );

  it("fails preview on a malformed MAC, naming the resource, the file line and the column; nothing is sent", async () => {
    // Line 10 of the file: the header, r01n01-04, then r01n06 on line 6 (r01n05 was removed).
    await writeFile(inventory(), rack1Csv(22, [5]).replace("52:54:00:00:01:10", "52:54:00:zz:01:10"));
    const before = writes();
    const preview = await workspace.run(["preview"], { allowFailure: true });
    const output = (preview.stdout + preview.stderr).replace(/\s+/g, " ");
    expect(preview.exitCode, output).not.toBe(0);
    expect(output).toMatch(
      /NodeSet resource 'rack1'.*csv line 10, column 'mac': mac '52:54:00:zz:01:10' is not a MAC address/,
    );
    expect(sinceThen(before)).toEqual({ post: 0, put: 0, delete: 0 });
  });

  // One language is enough through the engine: the hand-over is the provider's (release, adopt)
  // and the engine's (retainOnDelete), the same for the YAML program's native provider.
  it.runIf(program === "node-set-ts")(
    "moves a node from the set's rows to a Node and back with no write to xCAT, its values unchanged",
    async () => {
      await writeFile(inventory(), rack1Csv(22, [5]));
      const everyWrite = () =>
        Object.entries(emulator.stats().byRoute)
          .filter(([route]) => !route.startsWith("GET ") && route !== "POST /tokens")
          .reduce((sum, [, count]) => sum + count, 0);
      const held = await admin.nodes.get("r01n07");
      const before = everyWrite();

      await workspace.setConfig("standalone", "r01n07");
      const out = await workspace.up();
      expect(out).toMatchObject({ create: 1, update: 1 });
      expect(everyWrite()).toBe(before);
      expect(await admin.nodes.get("r01n07")).toEqual(held);
      expect(await workspace.outputs()).toMatchObject({ rack1Nodes: "r01n[01-04,06,08-22]" });

      await workspace.removeConfig("standalone");
      // The reviewer sees the Node go as retained in the preview that `up` shows before it
      // applies (one engine run): the engine forgets it, xCAT keeps the node.
      const { preview, changes: back } = await workspace.upAfterPreview(["--diff"]);
      // pkg/backend/display/object_diff.go:66-84 and 172-176: "<type>: (delete[retain])", then its
      // [id=...] and [urn=...] lines.
      expect(preview.stdout.match(/\(delete\[retain\]\)/g)).toHaveLength(1);
      expect(preview.stdout).toMatch(
        /\(delete\[retain\]\)[^\n]*\n\s*\[id=r01n07\]\n\s*\[urn=[^\n]*::r01n07\]/,
      );
      expect(back).toMatchObject({ delete: 1, update: 1 });
      expect(everyWrite()).toBe(before);
      expect(await admin.nodes.get("r01n07")).toEqual(held);
      expect(await workspace.outputs()).toMatchObject({ rack1Nodes: "r01n[01-04,06-22]" });
    },
  );
});
