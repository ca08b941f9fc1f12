/**
 * NodeSet on two xCAT management nodes in one TypeScript stack, each set given its server by its
 * `connection` input (issue #36 item 1, issue #38; support-matrix.md, the NodeSet row's
 * "Explicit providers" and "Two MNs" cells for TypeScript; YAML's explicit providers are shown in
 * explicit-providers.test.ts). The stack's own `xcat:url` names a third server, `stackMn`, which no
 * resource uses: a set that took the stack's config for its own would read or write there.
 * One stack, brought up once; the steps: each rack created on its own server from its CSV; a cell
 * changed by hand on mnB shown in `preview --refresh --diff` as that node and attribute, named by
 * `pulumi-xcat drift` on mnB (each set's nodes counted on its own server), put back by `up`; rack
 * B's image roll reviewed by `pulumi-xcat review` (its nodes by noderange, on mnB) and applied with
 * 1 PUT on mnB; destroy, 1 DELETE on each. Requests are counted per server by the emulators'
 * stats (a noderange in a PUT or DELETE path: xcat-behavior.md §1.3 and §9.6).
 */
import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { XcatClient } from "../../src/client";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { PulumiWorkspace } from "./support/pulumi-workspace";

const PASSWORD_A = "ns-a-Pw-5521";
const PASSWORD_B = "ns-b-Pw-9043";
const IMAGE = "rocky9-x86_64-netboot-compute";
const IMAGE_V2 = "rocky9-x86_64-netboot-compute-v2";
/** No XCAT_* of the test's own environment: the stack's config and the connections say where to go. */
const NO_XCAT_ENV = { XCAT_URL: "", XCAT_USERNAME: "", XCAT_PASSWORD: "", XCAT_TOKEN: "" };

/** Node writes a server received: POST (create), PUT (change), DELETE, by noderange in the path. */
function nodeWrites(emulator: RunningEmulator) {
  const byRoute = emulator.stats().byRoute;
  return {
    post: byRoute["POST /nodes/{noderange}"] ?? 0,
    put: byRoute["PUT /nodes/{noderange}"] ?? 0,
    delete: byRoute["DELETE /nodes/{noderange}"] ?? 0,
  };
}

/** Every request but the token requests: what a server was asked, read or write. */
function requests(emulator: RunningEmulator): number {
  const { byRoute } = emulator.stats();
  return Object.entries(byRoute)
    .filter(([route]) => route !== "POST /tokens")
    .reduce((sum, [, count]) => sum + count, 0);
}

describe("a NodeSet on each of two xCAT management nodes, by its connection (TypeScript)", () => {
  let mnA: RunningEmulator;
  let mnB: RunningEmulator;
  let stackMn: RunningEmulator;
  let adminB: XcatClient;
  let workspace: PulumiWorkspace;

  /** Writes on each server since `before`. */
  const since = (before: { a: ReturnType<typeof nodeWrites>; b: ReturnType<typeof nodeWrites> }) => {
    const diff = (now: ReturnType<typeof nodeWrites>, then: ReturnType<typeof nodeWrites>) => ({
      post: now.post - then.post,
      put: now.put - then.put,
      delete: now.delete - then.delete,
    });
    return { a: diff(nodeWrites(mnA), before.a), b: diff(nodeWrites(mnB), before.b) };
  };
  const now = () => ({ a: nodeWrites(mnA), b: nodeWrites(mnB) });
  const pulumiXcat = (...args: string[]) =>
    workspace.exec("pulumi-xcat", args, { allowFailure: true, env: NO_XCAT_ENV });

  beforeAll(async () => {
    [mnA, mnB, stackMn] = await Promise.all([
      startEmulator({ password: PASSWORD_A }),
      startEmulator({ user: "admin-b", password: PASSWORD_B }),
      startEmulator(),
    ]);
    adminB = new XcatClient({ url: mnB.url, username: "admin-b", password: PASSWORD_B });
    const sandbox = inject("e2eSandbox");
    workspace = await PulumiWorkspace.create({
      programDir: resolve(import.meta.dirname, "programs", "node-set-providers-ts"),
      sandboxDir: sandbox,
      // pulumi-xcat from the installed package, as `npm install` puts it on a project's PATH.
      env: { PATH: `${join(sandbox, "node_modules", ".bin")}:${process.env.PATH ?? ""}`, ...NO_XCAT_ENV },
    });
    await workspace.run([
      "config",
      "set-all",
      ...["--plaintext", `xcat:url=${stackMn.url}`, "--plaintext", "xcat:username=root"],
      ...["--secret", `xcat:password=${EMULATOR_DEFAULT_PASSWORD}`],
      ...["--plaintext", `urlA=${mnA.url}`, "--secret", `passwordA=${PASSWORD_A}`],
      ...["--plaintext", `urlB=${mnB.url}`, "--secret", `passwordB=${PASSWORD_B}`],
    ]);
  });

  afterAll(async () => {
    await adminB?.close();
    await workspace?.dispose();
    await mnA?.close();
    await mnB?.close();
    await stackMn?.close();
  });

  it("up creates each rack on its own management node from its CSV, one POST per node, and nothing on the stack's own server", async () => {
    const before = now();
    expect(await workspace.up()).toMatchObject({ create: 3 });
    expect(since(before)).toEqual({ a: { post: 4, put: 0, delete: 0 }, b: { post: 4, put: 0, delete: 0 } });
    expect(mnA.state.listObjects("node")).toEqual(["ra01", "ra02", "ra03", "ra04"]);
    expect(mnB.state.listObjects("node")).toEqual(["rb01", "rb02", "rb03", "rb04"]);
    expect(mnB.state.getObject("node", "rb03")).toMatchObject({
      ip: "10.2.1.3",
      mac: "52:54:00:02:10:03",
      bmc: "127.0.10.83",
      groups: "rack-b,all",
      provmethod: IMAGE,
    });
    expect(await workspace.outputs()).toEqual({ rackANodes: "ra[01-04]", rackBNodes: "rb[01-04]" });
    expect(requests(stackMn)).toBe(0);
  });

  it("a cell changed by hand on mnB shows in preview --refresh --diff as that node and attribute, read on mnB alone", async () => {
    await adminB.nodes.update("rb03", { ip: "10.9.9.3" });
    const readsA = mnA.stats().byRoute["GET /nodes/{noderange}"] ?? 0;
    const preview = await workspace.run(["preview", "--refresh", "--diff"]);
    // pulumi runs with --color never: the diff names rows, the node and its ip, xCAT's value to the CSV's.
    expect(preview.stdout).toMatch(
      /~ rows\s*:[\s\S]*~ rb03\s*:[\s\S]*~ ip\s*: "10\.9\.9\.3" => "10\.2\.1\.3"/,
    );
    expect(preview.stdout).not.toMatch(/~ r[ab]0[124]\s*:/);
    // Each set was read on its own server (rack A found as it was), nothing asked of the stack's.
    expect(mnA.stats().byRoute["GET /nodes/{noderange}"] ?? 0).toBeGreaterThan(readsA);
    expect(requests(stackMn)).toBe(0);
  });

  it("drift names the hand edit on rb03 on mnB and counts each rack's nodes on its own management node", async () => {
    const before = now();
    const drift = await pulumiXcat("drift");
    const lines = drift.stdout.trimEnd().split("\n");
    expect(drift.exitCode, drift.stdout + drift.stderr).toBe(3);
    const edited = lines.findIndex((line) =>
      /^~ ip \(NodeSet rackB\) changed by hand on rb03 \(1 node\)/.test(line),
    );
    expect(edited, drift.stdout).toBeGreaterThanOrEqual(0);
    expect(lines[edited], drift.stdout).toContain(mnB.url);
    expect(lines[edited + 1]).toBe("    rb03: 10.2.1.3 → 10.9.9.3");
    // Each connection's server listed with the account its connection holds in the state (the
    // server known by what the state records, backend and URL), each set counted on its own.
    expect(lines, drift.stdout).toContain(`4 of 4 nodes under code on ${mnA.url} (xCAT)`);
    expect(lines, drift.stdout).toContain(`4 of 4 nodes under code on ${mnB.url} (xCAT)`);
    expect(drift.stdout).not.toMatch(/Not listed|held as a secret|ra0\d/);
    for (const mn of [mnA, mnB])
      expect(mn.stats().byRoute["GET /nodes"] ?? 0, drift.stdout).toBeGreaterThan(0);
    // drift only reads.
    expect(since(before)).toEqual({ a: { post: 0, put: 0, delete: 0 }, b: { post: 0, put: 0, delete: 0 } });
    for (const password of [PASSWORD_A, PASSWORD_B])
      expect(drift.stdout + drift.stderr).not.toContain(password);
  });

  it("up --refresh puts the cell back with 1 PUT on mnB and nothing on mnA", async () => {
    const before = now();
    const asked = requests(stackMn);
    await workspace.up(["--refresh"]);
    expect(since(before)).toEqual({ a: { post: 0, put: 0, delete: 0 }, b: { post: 0, put: 1, delete: 0 } });
    expect(mnB.state.getObject("node", "rb03")?.ip).toBe("10.2.1.3");
    expect(requests(stackMn)).toBe(asked);
  });

  it("review of rack B's image roll names rb[01-04] on mnB, and up rolls it with 1 PUT on mnB and nothing on mnA", async () => {
    const asked = requests(stackMn);
    await workspace.setConfig("rackBImage", IMAGE_V2);
    const plan = join(workspace.programDir, "roll-plan.json");
    // The roll's up previews first; its preview is the plan reviewed (one engine run for both).
    const before = now();
    const { previewJson } = await workspace.upAfterJsonPreview();
    await writeFile(plan, previewJson);
    const review = await pulumiXcat("review", plan, "--fail-on", "delete");
    expect(review.exitCode, review.stdout + review.stderr).toBe(0);
    const lines = review.stdout.trimEnd().split("\n");
    const roll = lines.indexOf(`~ 4 nodes rb[01-04] (NodeSet rackB): provmethod: ${IMAGE} → ${IMAGE_V2}`);
    expect(roll, review.stdout).toBeGreaterThan(0);
    // Under the heading of mnB's connection, the last heading above the line.
    const heading = lines.slice(0, roll).findLast((line) => /^On /.test(line));
    expect(heading, review.stdout).toContain(mnB.url);
    expect(review.stdout).not.toMatch(/NodeSet rackA|\d NodeSets?\b/);

    expect(since(before)).toEqual({ a: { post: 0, put: 0, delete: 0 }, b: { post: 0, put: 1, delete: 0 } });
    for (const node of ["rb01", "rb02", "rb03", "rb04"])
      expect(mnB.state.getObject("node", node)?.provmethod).toBe(IMAGE_V2);
    expect(mnA.state.getObject("node", "ra01")?.provmethod).toBe(IMAGE);
    expect(requests(stackMn)).toBe(asked);
  });

  it("destroy deletes each rack with 1 DELETE on its own server", async () => {
    const before = now();
    const asked = requests(stackMn);
    await workspace.destroy();
    expect(since(before)).toEqual({ a: { post: 0, put: 0, delete: 1 }, b: { post: 0, put: 0, delete: 1 } });
    expect(mnA.state.listObjects("node")).toEqual([]);
    expect(mnB.state.listObjects("node")).toEqual([]);
    expect(requests(stackMn)).toBe(asked);
  });
});
