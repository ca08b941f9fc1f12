/**
 * Issue #22, items 2 and 3 on the real engine, with pulumi-xcat installed from its tarball next to
 * @pulumi/pulumi only (the e2e sandbox):
 * - the policy pack at node_modules/pulumi-xcat/policy-pack refuses duplicate ip, MAC and BMC
 *   addresses and a node in two Deployments, naming both resources (through `review.sh preview`,
 *   which then says the review failed and saves no plan), and passes the clean program;
 * - examples/ci/review.sh: the plan saved by `review.sh preview` (which runs the pack, so the lab
 *   passes it) is refused by `review.sh up` once the program changed, before any request that
 *   changes the cluster (counted on the emulator), is refused for another stack, and applies once
 *   the program is the reviewed one again.
 */

import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { labProgram } from "./support/lab-program";
import { PulumiWorkspace } from "./support/pulumi-workspace";

const repoRoot = resolve(import.meta.dirname, "../..");
const reviewScript = join(repoRoot, "examples/ci/review.sh");
const started = Date.now();

let emulator: RunningEmulator;
const workspaces: PulumiWorkspace[] = [];
let labCopy: string | undefined;

beforeAll(async () => {
  emulator = await startEmulator({ bootSeconds: 1 });
});

afterAll(async () => {
  for (const ws of workspaces) await ws.dispose();
  if (labCopy) await rm(labCopy, { recursive: true, force: true });
  await emulator?.close();
  console.log(`policy-and-plan: ${((Date.now() - started) / 1000).toFixed(1)} s`);
});

const connection = () => ({
  XCAT_URL: emulator.url,
  XCAT_USERNAME: "root",
  XCAT_PASSWORD: EMULATOR_DEFAULT_PASSWORD,
});

/** Requests that change the cluster (every POST, PUT and DELETE but a login), by route. */
function writes(): Record<string, number> {
  return Object.fromEntries(
    Object.entries(emulator.stats().byRoute).filter(
      ([route]) => /^(POST|PUT|DELETE) /.test(route) && route !== "POST /tokens",
    ),
  );
}

describe("the policy pack from node_modules/pulumi-xcat/policy-pack", () => {
  it("refuses duplicate ip, MAC and BMC and a node in two Deployments, naming both resources; passes the clean program", async () => {
    const sandbox = inject("e2eSandbox");
    const pack = join(sandbox, "node_modules/pulumi-xcat/policy-pack");
    const ws = await PulumiWorkspace.create({
      programDir: join(import.meta.dirname, "fixtures/cluster-rules"),
      sandboxDir: sandbox,
      env: connection(),
    });
    workspaces.push(ws);

    const clean = await ws.run(["preview", "--policy-pack", pack], { allowFailure: true });
    expect(clean.exitCode, clean.stdout + clean.stderr).toBe(0);
    expect(clean.stdout).toMatch(/pulumi-xcat@v\d/);

    // The mistakes, reviewed with review.sh: it runs the installed pack, shows why the preview
    // failed and saves no plan.
    await ws.setConfig("mistakes", "true");
    const refused = await ws.exec("bash", [reviewScript, "preview"], {
      allowFailure: true,
      env: { STACK: ws.stackName },
    });
    const output = refused.stderr.replace(/\s+/g, " ");
    expect(refused.exitCode, output).toBe(1);
    expect(output).toContain("so there is nothing to review and no plan was saved");
    expect(existsSync(join(ws.programDir, ".xcat-review/plan.json"))).toBe(false);
    expect(output).toContain("[mandatory] unique-node-ip");
    expect(output).toMatch(/ip 10\.0\.0\.2 is given to both Node "n0[23]" \(node n0[23]\) and Node "n0[23]"/);
    expect(output).toMatch(
      /mac 52:54:00:00:00:01 is given to both Node "n0[13]" \(node n0[13]\) and Node "n0[13]"/,
    );
    expect(output).toMatch(
      /bmc 10\.1\.0\.1 is given to both Node "n0[12]" \(node n0[12]\) and Node "n0[12]"/,
    );
    expect(output).toMatch(
      /Deployment "(compute|test)-image" and Deployment "(compute|test)-image" both cover n02/,
    );
    // Refused in the preview: nothing reached the management node.
    expect(writes()).toEqual({});
  });
});

describe("examples/ci/review.sh: approved is applied", () => {
  it("refuses the reviewed plan once the program changed (no write) or for another stack, and applies it when it holds", async () => {
    const sandbox = inject("e2eSandbox");
    labCopy = await labProgram(sandbox);
    const ws = await PulumiWorkspace.create({ programDir: labCopy, sandboxDir: sandbox, env: connection() });
    workspaces.push(ws);
    await ws.setConfig("bmcPassword", "lab-bmc-secret", { secret: true });
    await ws.setConfig("racks", "1");
    await ws.setConfig("nodesPerRack", "4");
    await ws.setConfig("vms", "0");
    await ws.setConfig("pollSeconds", "1");
    // The target branch, applied before the pull request.
    await ws.up();

    const script = (mode: string, env: Record<string, string> = {}) =>
      ws.exec("bash", [reviewScript, mode], { allowFailure: true, env: { STACK: ws.stackName, ...env } });
    const reviewDir = join(ws.programDir, ".xcat-review");

    // The pull request: the compute image rolled. Its review runs the policy pack (the lab passes).
    await ws.setConfig("computeOs", "rhels9.5");
    const review = await script("preview");
    expect(review.exitCode, review.stderr).toBe(0);
    expect(review.stdout).toMatch(/4 nodes deployed by a Deployment: r01n\[01-04\]/);
    expect(existsSync(join(reviewDir, "plan.json"))).toBe(true);

    // After the approval the program changed (a login node added): the plan no longer holds.
    await ws.setConfig("loginNodes", "2");
    const writesBefore = writes();
    const stale = await script("up");
    expect(stale.exitCode, stale.stdout + stale.stderr).toBe(4);
    expect(stale.stdout).toMatch(/not allowed by the plan|violates plan|no plan for resource/);
    expect(stale.stderr).toContain("The reviewed plan no longer holds");
    expect(stale.stderr).toContain("Nothing was applied");
    expect(stale.stderr).toContain("Run the review again");
    expect(writes()).toEqual(writesBefore);

    // The plan file of this stack, given to another stack: refused before the engine starts.
    const other = await script("up", { STACK: "other" });
    expect(other.exitCode).toBe(4);
    expect(other.stderr).toContain(`saved for stack '${ws.stackName}'`);
    expect(other.stderr).toContain("STACK=other review.sh preview");
    expect(writes()).toEqual(writesBefore);

    // (review.sh selected that stack; the harness writes the lab's stack's settings file by name,
    // and review.sh selects the lab's stack again from STACK, so no `pulumi stack select` here.)

    // The merged program is the reviewed one: the plan applies. (Back to no loginNodes key at all:
    // the dynamic provider receives the whole stack config, so even `loginNodes: 1`, the default,
    // differs from the reviewed plan.)
    await ws.removeConfig("loginNodes");
    const apply = await script("up", { APPROVED_BY: "ana (pull request #7)" });
    expect(apply.exitCode, apply.stdout + apply.stderr).toBe(0);
    expect(await ws.lastChanges()).toMatchObject({ update: 2, create: 1, delete: 1 });
    // The stack's history says which review this apply applied and who approved it: the plan's
    // checksum and the commit the review comment ends with (issue #37 item 6).
    const planSha = createHash("sha256")
      .update(readFileSync(join(reviewDir, "plan.json")))
      .digest("hex");
    const reviewedCommit = /Commit `([^`]*)`/.exec(readFileSync(join(reviewDir, "review.md"), "utf8"))?.[1];
    expect(reviewedCommit).toBeDefined();
    // The newest record of the stack's history, the entry `pulumi stack history --json` prints first.
    expect((await ws.lastUpdate()).message).toBe(
      `review.sh up: plan sha256 ${planSha}, reviewed at commit ${reviewedCommit}, approved by ana (pull request #7)`,
    );
    expect(emulator.state.getObject("group", "compute")).toMatchObject({
      provmethod: "rhels9.5-x86_64-netboot-compute",
    });

    // A plan saved from a preview that refreshed, after a hand edit no review counts as drift (a
    // comment on r01n01, which the lab exports in firstComputeNode): the plan records the stack's
    // outputs as the refresh read them, the apply (no refresh) computes them from the state, and
    // Pulumi stops in its preview with exit 1 and no message (pulumi/pulumi#16670; why
    // review.sh preview saves its plan from a second preview without drift). review.sh up says so.
    emulator.state.setRow("nodelist", { node: "r01n01" }, { comments: "racked by hand" });
    const saved = await ws.exec(
      "bash",
      [
        "-c",
        'PATH="$(npm prefix)/node_modules/.bin:$PATH"; pulumi preview --refresh --json --non-interactive --save-plan "$1/plan.json" >"$1/preview.json" && exec pulumi-xcat pins save "$1/preview.json" --plan "$1/plan.json" --out "$1/pins.json"',
        "save",
        reviewDir,
      ],
      { env: { STACK: ws.stackName } },
    );
    expect(saved.exitCode, saved.stderr).toBe(0);
    const writesBeforeSilent = writes();
    const silent = await script("up");
    expect(silent.exitCode, silent.stdout + silent.stderr).toBe(1);
    expect(silent.stderr).toContain("pulumi up stopped in its preview without saying why (exit 1)");
    expect(silent.stderr).toContain("pulumi/pulumi#16670");
    expect(silent.stderr).toContain("Nothing was applied.");
    expect(writes()).toEqual(writesBeforeSilent);
  });
});
