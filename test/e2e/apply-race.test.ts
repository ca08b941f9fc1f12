/**
 * Issue #37 item 3 on the real engine: two merges to main whose applies race, run as the CI
 * services run examples/ci (github-workflow.yml, gitlab-ci.yml): each pull request reviewed with
 * review.sh preview on the main of its day, both merged, the first merge's job dropped (GitHub
 * cancels a pending run when a newer one queues; a failed or refused job leaves the same). The
 * second merge's job stops in applied.sh check, naming the first, before any write; "review and
 * apply main" (review.sh preview, review.sh up, applied.sh record) then applies both, and the next
 * check passes. Writes are counted on the emulator.
 */
import { cp, mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { PulumiWorkspace } from "./support/pulumi-workspace";

const repoRoot = resolve(import.meta.dirname, "../..");
const reviewScript = join(repoRoot, "examples/ci/review.sh");
const appliedScript = join(repoRoot, "examples/ci/applied.sh");

let emulator: RunningEmulator;
let ws: PulumiWorkspace | undefined;

beforeAll(async () => {
  emulator = await startEmulator({ bootSeconds: 1 });
});

afterAll(async () => {
  await ws?.dispose();
  await emulator?.close();
});

/** Requests that change the cluster (every POST, PUT and DELETE but a login), in all. */
function writeCount(): number {
  return Object.entries(emulator.stats().byRoute)
    .filter(([route]) => /^(POST|PUT|DELETE) /.test(route) && route !== "POST /tokens")
    .reduce((sum, [, count]) => sum + count, 0);
}

describe("examples/ci/applied.sh: two merges whose applies race", () => {
  it("the second merge's job stops naming the first; review and apply main applies both", async () => {
    const sandbox = inject("e2eSandbox");
    ws = await PulumiWorkspace.create({
      programDir: join(import.meta.dirname, "fixtures/apply-race"),
      sandboxDir: sandbox,
      env: { XCAT_URL: emulator.url, XCAT_USERNAME: "root", XCAT_PASSWORD: EMULATOR_DEFAULT_PASSWORD },
    });
    const env = { STACK: ws.stackName, GIT_AUTHOR_NAME: "ci", GIT_AUTHOR_EMAIL: "ci@example.invalid" };
    const git = (...args: string[]) =>
      ws?.exec("git", args, {
        env: { ...env, GIT_COMMITTER_NAME: "ci", GIT_COMMITTER_EMAIL: "ci@example.invalid" },
      });
    const script = (path: string, mode: string) =>
      ws?.exec("bash", [path, mode], { allowFailure: true, env });
    const stackFile = `Pulumi.${ws.stackName}.yaml`;

    // main: the base program, applied and recorded as a merge job would.
    await ws.setConfig("nodes", "1");
    await git("init", "--quiet", "--initial-branch", "main");
    await git("add", "--all");
    await git("commit", "--quiet", "-m", "base");
    await ws.up();
    expect((await script(appliedScript, "record"))?.exitCode).toBe(0);

    // Pull request A adds two nodes; pull request B changes the group. Each is reviewed on base.
    const plans = join(ws.programDir, "..", "plans");
    await mkdir(plans, { recursive: true });
    for (const branch of ["pr-a", "pr-b"]) {
      await git("checkout", "--quiet", "-b", branch, "main");
      if (branch === "pr-a") await ws.setConfig("nodes", "3");
      else await writeFile(join(ws.programDir, "comment.txt"), "rack of merge B\n");
      await git("add", stackFile, ...(branch === "pr-b" ? ["comment.txt"] : []));
      await git("commit", "--quiet", "-m", `${branch}: its change`);
      const review = await script(reviewScript, "preview");
      expect(review?.exitCode, review?.stderr).toBe(0);
      await cp(join(ws.programDir, ".xcat-review/plan.json"), join(plans, `${branch}.json`));
    }
    expect(emulator.state.getObject("node", "race02")).toBeUndefined();

    // Both merged, A first. The CI service dropped A's job; B's job runs on main's head.
    await git("checkout", "--quiet", "main");
    await git("merge", "--quiet", "--no-ff", "-m", "Merge pull request A", "pr-a");
    await git("merge", "--quiet", "--no-ff", "-m", "Merge pull request B", "pr-b");
    const before = writeCount();
    const check = await script(appliedScript, "check");
    expect(check?.exitCode, check?.stderr).toBe(5);
    expect(check?.stderr).toContain("were not applied");
    expect(check?.stderr).toMatch(/[0-9a-f]{7,} Merge pull request A/);
    expect(check?.stderr).not.toContain("Merge pull request B");
    expect(check?.stderr).toContain("review and apply main");
    expect(writeCount()).toBe(before);

    // Review and apply main: all of main reviewed, then exactly that plan applied and recorded.
    const review = await script(reviewScript, "preview");
    expect(review?.exitCode, review?.stderr).toBe(0);
    const apply = await script(reviewScript, "up");
    expect(apply?.exitCode, `${apply?.stdout}${apply?.stderr}`).toBe(0);
    expect(await ws.lastChanges()).toMatchObject({ create: 2, update: 1 });
    expect((await script(appliedScript, "record"))?.exitCode).toBe(0);
    // Both changes are on the cluster.
    expect(emulator.state.getObject("node", "race03")).toBeDefined();
    expect(emulator.state.getObject("group", "race")).toMatchObject({ usercomment: "rack of merge B" });
    const applyWrites = writeCount() - before;
    expect(applyWrites).toBeGreaterThan(0);

    // The next merge follows main's recorded head: its check passes; no write made by checking.
    await git("commit", "--quiet", "--allow-empty", "-m", "Merge pull request C");
    const next = await script(appliedScript, "check");
    expect(next?.exitCode, next?.stderr).toBe(0);
    expect(writeCount() - before).toBe(applyWrites);
    console.log(`apply-race: writes by review and apply main ${applyWrites}`);
  });
});
