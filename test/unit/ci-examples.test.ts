/**
 * examples/ci: the GitHub Actions workflow and the GitLab CI file are valid YAML, review pull
 * requests and apply merges, and run the cluster commands only through examples/ci/review.sh, the
 * script test/e2e/review-ci.test.ts runs on the real engine, so what CI runs is what is tested.
 * js-yaml is parsed with the copy @pulumi/pulumi installs (no parser of our own to maintain).
 */
import { execFileSync } from "node:child_process";
import { accessSync, constants, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const yaml = createRequire(import.meta.url)("js-yaml") as { load(text: string): unknown };
const repoRoot = resolve(import.meta.dirname, "../..");
const ciDir = join(repoRoot, "examples/ci");
const SCRIPT = "examples/ci/review.sh";
const APPLIED = "examples/ci/applied.sh";

type Json = Record<string, unknown>;
const load = (file: string) => yaml.load(readFileSync(join(ciDir, file), "utf8")) as Json;
const asMap = (value: unknown) => (value ?? {}) as Json;

/** Every shell command of a job: GitHub `steps[].run`, GitLab `*script` lines. */
function commandsOf(job: Json): string[] {
  const steps = (job.steps as Json[] | undefined) ?? [];
  return [
    ...steps.map((step) => step.run).filter((run): run is string => typeof run === "string"),
    ...((job.before_script as string[] | undefined) ?? []),
    ...((job.script as string[] | undefined) ?? []),
    ...((job.after_script as string[] | undefined) ?? []),
  ];
}

/** The cluster commands belong to the script alone: a YAML file never runs them itself. */
function expectOnlyTheScriptRunsPulumi(jobs: Json[]): void {
  for (const command of jobs.flatMap(commandsOf)) {
    expect(command).not.toMatch(/\bpulumi (preview|up|destroy|refresh)\b|pulumi-xcat review|xcat-emulator/);
  }
}

describe("examples/ci", () => {
  it("review.sh is executable bash that parses", () => {
    accessSync(join(repoRoot, SCRIPT), constants.X_OK);
    execFileSync("bash", ["-n", join(repoRoot, SCRIPT)]);
  });

  it("the GitHub workflow reviews pull requests with review.sh, comments, and applies pushes to main", () => {
    const workflow = load("github-workflow.yml");
    const on = asMap(workflow.on);
    expect(on).toHaveProperty("pull_request");
    expect(asMap(on.push).branches).toEqual(["main"]);
    const jobs = asMap(workflow.jobs);
    const review = asMap(jobs.review);
    const up = asMap(jobs.up);
    expect(review.if).toBe("github.event_name == 'pull_request'");
    expect(up.if).toBe("github.event_name == 'push'");
    expect(asMap(review.permissions)["pull-requests"]).toBe("write");

    const reviewCommands = commandsOf(review);
    expect(reviewCommands).toContain(`${SCRIPT} preview`);
    // Without XCAT_URL, the target branch is applied to the emulator first, by the same script.
    const base = (review.steps as Json[]).find((step) => String(step.run).includes("BASE_SHA"));
    expect(base?.if).toBe("env.XCAT_URL == ''");
    expect(base?.run).toContain(`cp ${SCRIPT} "$RUNNER_TEMP/review.sh"`);
    expect(base?.run).toContain('"$RUNNER_TEMP/review.sh" base');
    const post = reviewCommands.find((command) => command.includes("gh pr comment")) ?? "";
    expect(post).toContain("--body-file .xcat-review/review.md");
    expect(post).toContain('>> "$GITHUB_STEP_SUMMARY"');
    // The reviewed plan travels as an artifact from the pull request to the merge job.
    const keep = (review.steps as Json[]).find((step) =>
      String(step.uses).startsWith("actions/upload-artifact"),
    );
    expect(asMap(keep?.with).name).toBe("xcat-review");
    expect(String(asMap(keep?.with).path)).toContain(".xcat-review/plan.json");
    const upCommands = commandsOf(up);
    const fetchPlan = upCommands.find((command) => command.includes("gh run download")) ?? "";
    expect(fetchPlan).toContain("--name xcat-review");
    // The pull request's approving reviewers go with the plan into the stack's history.
    expect(fetchPlan).toMatch(/select\(\.state == "APPROVED"\)/);
    expect(fetchPlan).toMatch(/APPROVED_BY=.*>> "\$GITHUB_ENV"/);
    expect(upCommands.slice(-2)).toEqual([`${SCRIPT} up`, `${APPLIED} record`]);
    expect(asMap(up.permissions).actions).toBe("read");
    expectOnlyTheScriptRunsPulumi([review, up]);
  });

  it("the GitLab file reviews merge requests with review.sh, posts a note, and applies the default branch", () => {
    const config = load("gitlab-ci.yml");
    const review = asMap(config["xcat-review"]);
    const up = asMap(config["xcat-up"]);
    expect(review.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "merge_request_event"' }]);
    expect(up.rules).toEqual([
      { if: '$CI_PIPELINE_SOURCE != "schedule" && $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH' },
    ]);
    expect(review.script).toContain(`${SCRIPT} preview`);
    expect(String((review.script as string[])[0])).toContain("/tmp/review.sh base");
    expect(String((review.after_script as string[])[0])).toMatch(
      /body@\.xcat-review\/review\.md[\s\S]*merge_requests\/\$CI_MERGE_REQUEST_IID\/notes/,
    );
    expect(asMap(review.artifacts).paths).toContain(".xcat-review/review.md");
    expect(asMap(review.artifacts).paths).toContain(".xcat-review/plan.json");
    const upScript = up.script as string[];
    expect(upScript[1]).toMatch(/jobs\/\$job\/artifacts/);
    expect(upScript.at(-2)).toBe(`${SCRIPT} up`);
    // Who approved the merge request goes with the plan into the stack's history (issue #37 item 6).
    expect(upScript.at(-3)).toMatch(/merge_requests\/\$mr\/approvals/);
    expect(upScript.at(-3)).toMatch(/export APPROVED_BY=/);
    expectOnlyTheScriptRunsPulumi([review, up, asMap(config.default)]);
  });

  it("both run review.sh drift on a schedule only, and keep one issue (GitHub) or one note (GitLab) from its markdown", () => {
    const workflow = load("github-workflow.yml");
    expect(asMap(workflow.on).schedule).toEqual([{ cron: "17 3 * * *" }]);
    const drift = asMap(asMap(workflow.jobs).drift);
    expect(drift.if).toBe(
      "github.event_name == 'schedule' || (github.event_name == 'workflow_dispatch' && inputs.task == 'drift')",
    );
    expect(asMap(drift.permissions).issues).toBe("write");
    const commands = commandsOf(drift);
    expect(commands.find((command) => command.includes(`${SCRIPT} drift`))).toBeDefined();
    const issue = commands.find((command) => command.includes("gh issue")) ?? "";
    expect(issue).toContain("--label xcat-drift");
    expect(issue).toContain('gh issue edit "$issue" --body-file .xcat-review/drift.md');
    expect(issue).toContain("gh issue close");
    // The review and merge jobs never run on the schedule.
    const jobs = asMap(workflow.jobs);
    expect(asMap(jobs.review).if).not.toMatch(/schedule/);
    expect(asMap(jobs.up).if).not.toMatch(/schedule/);

    const config = load("gitlab-ci.yml");
    const gitlabDrift = asMap(config["xcat-drift"]);
    expect(gitlabDrift.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "schedule"' }]);
    expect(String((gitlabDrift.script as string[])[0])).toContain(`${SCRIPT} drift`);
    const note = String((gitlabDrift.after_script as string[])[0]);
    expect(note).toMatch(/issues\?labels=xcat-drift/);
    expect(note).toMatch(
      /--request PUT --data-urlencode "body@\.xcat-review\/drift\.md" "\$api\/issues\/\$issue\/notes\/\$note"/,
    );
    expectOnlyTheScriptRunsPulumi([drift, gitlabDrift]);
  });

  // Issue #37 item 3: no merge's apply is dropped without a word, and there is a way back.
  it("every merge job checks that the merges before it were applied, and records its own; apply-main is the way back (GitHub)", () => {
    const workflow = load("github-workflow.yml");
    const jobs = asMap(workflow.jobs);
    const up = asMap(jobs.up);
    const steps = (up.steps as Json[]).map((step) => String(step.run ?? step.uses));
    const check = steps.indexOf(`${APPLIED} check`);
    const fetch = steps.findIndex((step) => step.includes("gh run download"));
    expect(check).toBeGreaterThan(-1);
    expect(check).toBeLessThan(fetch);
    expect(steps.indexOf(`${APPLIED} record`)).toBe(steps.indexOf(`${SCRIPT} up`) + 1);
    expect(asMap((up.steps as Json[])[0]?.with)["fetch-depth"]).toBe(0);
    // The jobs that change the cluster share one group and are never cancelled while they run.
    for (const name of ["up", "apply-main"])
      expect(asMap(jobs[name]).concurrency).toEqual({ group: "xcat-apply", "cancel-in-progress": false });

    const inputs = asMap(asMap(asMap(workflow.on).workflow_dispatch).inputs);
    expect(asMap(inputs.task).options).toEqual(["drift", "apply-main"]);
    const reviewMain = asMap(jobs["review-main"]);
    const applyMain = asMap(jobs["apply-main"]);
    expect(reviewMain.if).toContain("inputs.task == 'apply-main'");
    expect(reviewMain.if).toContain("github.ref == 'refs/heads/main'");
    expect(commandsOf(reviewMain)).toContain(`${SCRIPT} preview`);
    expect(applyMain.needs).toBe("review-main");
    // A person approves the plan review-main showed before apply-main runs.
    expect(applyMain.environment).toBe("xcat-apply");
    const download = (applyMain.steps as Json[]).find((step) =>
      String(step.uses).startsWith("actions/download-artifact"),
    );
    expect(asMap(download?.with).name).toBe("xcat-review-main");
    const applyCommands = commandsOf(applyMain);
    expect(applyCommands[0]).toBe("npm ci");
    // The environment's approvers go with the plan into the stack's history (issue #37 item 6).
    expect(applyCommands[1]).toMatch(/actions\/runs\/\$GITHUB_RUN_ID\/approvals/);
    expect(applyCommands[1]).toMatch(/APPROVED_BY=.*>> "\$GITHUB_ENV"/);
    expect(applyCommands.slice(2)).toEqual([`${SCRIPT} up`, `${APPLIED} record`]);
    expectOnlyTheScriptRunsPulumi([reviewMain, applyMain]);
  });

  it("every merge job checks and records the applied commit; the manual jobs review and apply main (GitLab)", () => {
    const config = load("gitlab-ci.yml");
    const up = asMap(config["xcat-up"]);
    const upScript = up.script as string[];
    expect(upScript[0]).toContain(`${APPLIED} check`);
    expect(upScript.at(-1)).toContain(`${APPLIED} record`);
    expect(asMap(up.variables).GIT_DEPTH).toBe("0");
    const reviewMain = asMap(config["xcat-review-main"]);
    const applyMain = asMap(config["xcat-apply-main"]);
    const manualOnMain = [
      {
        if: '$CI_PIPELINE_SOURCE != "schedule" && $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH',
        when: "manual",
        allow_failure: true,
      },
    ];
    expect(reviewMain.rules).toEqual(manualOnMain);
    expect(applyMain.rules).toEqual(manualOnMain);
    expect(reviewMain.script).toEqual([`${SCRIPT} preview`]);
    expect(asMap(reviewMain.artifacts).paths).toContain(".xcat-review/plan.json");
    expect(applyMain.needs).toEqual(["xcat-review-main"]);
    expect(applyMain.resource_group).toBe(up.resource_group);
    expect((applyMain.script as string[])[0]).toBe(
      `APPROVED_BY="$GITLAB_USER_LOGIN (manual job $CI_JOB_ID)" ${SCRIPT} up`,
    );
    expect((applyMain.script as string[])[1]).toContain(`${APPLIED} record`);
    expectOnlyTheScriptRunsPulumi([reviewMain, applyMain]);
  });

  it("applied.sh is executable bash that parses", () => {
    accessSync(join(repoRoot, APPLIED), constants.X_OK);
    execFileSync("bash", ["-n", join(repoRoot, APPLIED)]);
  });
});
