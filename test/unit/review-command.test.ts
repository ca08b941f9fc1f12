import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** Runs the built command (npm run build first), as CI would. */
function review(preview: unknown, ...args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), "review-"));
  const file = join(dir, "preview.json");
  writeFileSync(file, JSON.stringify(preview));
  return spawnSync(process.execPath, ["dist/cli/main.js", "review", file, ...args], { encoding: "utf8" });
}
const urn = (name: string) => `urn:pulumi:dev::lab::pulumi-nodejs:dynamic/xcat:Node::${name}`;
const type = "pulumi-nodejs:dynamic/xcat:Node";
const addresses = { ip: "10.0.0.2", mac: "52:54:00:00:00:02", bmc: "10.1.0.2" };
const deleteStep = {
  op: "delete",
  urn: urn("n1"),
  oldState: { type, inputs: { name: "n1", groups: ["all"], attributes: addresses } },
};
const createStep = {
  op: "create",
  urn: urn("n2"),
  newState: { type, inputs: { name: "n2", groups: ["all"], attributes: addresses } },
};

// Each case starts the built command a few times: on a loaded machine that takes seconds.
describe("pulumi-xcat review --fail-on", { timeout: 60_000 }, () => {
  it("exits 3 exactly when a delete is planned", () => {
    expect(review({ steps: [createStep, deleteStep] }, "--fail-on", "delete").status).toBe(3);
    expect(review({ steps: [createStep] }, "--fail-on", "delete").status).toBe(0);
    expect(review({ steps: [createStep, deleteStep] }).status).toBe(0);
    expect(review({ steps: [createStep, deleteStep] }, "--fail-on=replace,power").status).toBe(0);
  });

  it("refuses unknown kinds and formats with exit 2 and a clear message", () => {
    const bad = review({ steps: [] }, "--fail-on", "explode");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("unknown kind 'explode'");
    expect(review({ steps: [] }, "--format", "html").status).toBe(2);
  });

  it("reads the management node only when the plan needs it, and says what to do when it cannot", () => {
    const group = {
      op: "delete",
      urn: "urn:pulumi:dev::lab::pulumi-nodejs:dynamic/xcat:Group::rack03",
      oldState: {
        type: "pulumi-nodejs:dynamic/xcat:Group",
        inputs: { name: "rack03", attributes: { rack: "03" } },
      },
    };
    // No xcat:url in the preview's config and none in the environment: nothing to read from.
    const env = { ...process.env, XCAT_URL: "", XCAT_USERNAME: "", XCAT_PASSWORD: "", XCAT_TOKEN: "" };
    const failed = spawnReview({ steps: [group] }, env);
    expect(failed.status).toBe(2);
    expect(failed.stderr).toContain("needs the members a group change reaches from the management node");
    expect(failed.stderr).toContain("no xCAT URL is set");
    const offline = spawnReview({ steps: [group] }, env, "--offline", "--fail-on", "group");
    expect(offline.stdout).toContain("members and their values not read (review --offline)");
    expect(offline.status).toBe(3);
  });
});

function spawnReview(preview: unknown, env: NodeJS.ProcessEnv, ...args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), "review-"));
  const file = join(dir, "preview.json");
  writeFileSync(file, JSON.stringify(preview));
  return spawnSync(process.execPath, ["dist/cli/main.js", "review", file, ...args], {
    encoding: "utf8",
    env,
  });
}

describe("pulumi-xcat review of a preview that failed", { timeout: 60_000 }, () => {
  it("refuses it (exit 2, the error and what to do) instead of reading it as no changes", () => {
    // What `pulumi preview --json` printed (Pulumi 3.259) for the lab with nodesPerRack 300: the
    // program threw, no resource step, the error as a diagnostic.
    const failed = review({
      steps: [{ op: "same", urn: "urn:pulumi:drx::xcat-lab::pulumi:pulumi:Stack::xcat-lab-drx" }],
      diagnostics: [
        {
          message:
            "error: Running program '/p/index.ts' failed with an unhandled exception:\nError: nodesPerRack: at most 250 " +
            "(addresses are 10.x.<rack>.<slot>)\n    at Object.<anonymous> \u001b[90m(/p/index.ts:28:31\u001b[90m)\u001b[39m\n",
          severity: "error",
        },
      ],
      changeSummary: { same: 1 },
    });
    expect(failed.status).toBe(2);
    expect(failed.stdout).toBe("");
    expect(failed.stderr).toContain("failed, so it does not show what `pulumi up` would do:");
    expect(failed.stderr).toContain("Error: nodesPerRack: at most 250 (addresses are 10.x.<rack>.<slot>)");
    expect(failed.stderr).not.toContain("at Object.<anonymous>");
    expect(failed.stderr).toContain("Fix what it names, run `pulumi preview --json` again and review that.");
  });
});
