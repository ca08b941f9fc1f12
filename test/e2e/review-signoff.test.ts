/**
 * Issue #37 item 1 on the real engine, through examples/ci/review.sh as CI runs it: what is
 * applied is what was approved, including against the cluster. A review of login01's bmc change
 * pins the value xCAT holds (10.1.200.1); a hand edit of that attribute before the apply makes
 * `review.sh up` refuse with exit 4, naming node and attribute, with no write request reaching the
 * emulator; a hand edit of an attribute no change touches (ip) neither blocks the apply nor is
 * overwritten by it.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { XcatClient } from "../../src/client";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { PulumiWorkspace } from "./support/pulumi-workspace";

const repoRoot = resolve(import.meta.dirname, "../..");
const reviewScript = join(repoRoot, "examples/ci/review.sh");

let emulator: RunningEmulator;
let workspace: PulumiWorkspace | undefined;

beforeAll(async () => {
  emulator = await startEmulator({ bootSeconds: 1 });
});

afterAll(async () => {
  await workspace?.dispose();
  await emulator?.close();
});

/** Requests that change the cluster (every POST, PUT and DELETE but a login), by route. */
function writes(): Record<string, number> {
  return Object.fromEntries(
    Object.entries(emulator.stats().byRoute).filter(
      ([route]) => /^(POST|PUT|DELETE) /.test(route) && route !== "POST /tokens",
    ),
  );
}

/** Edits a node on the management node as an administrator would, outside Pulumi. */
async function byHand(node: string, attributes: Record<string, string>): Promise<void> {
  const admin = new XcatClient({ url: emulator.url, username: "root", password: EMULATOR_DEFAULT_PASSWORD });
  try {
    await admin.nodes.update(node, attributes);
  } finally {
    await admin.close();
  }
}

describe("examples/ci/review.sh: what is applied is what the review showed", () => {
  it("refuses the apply before any write when a reviewed attribute was edited by hand, and applies when only an untouched one was", async () => {
    const sandbox = inject("e2eSandbox");
    const ws = await PulumiWorkspace.create({
      programDir: join(import.meta.dirname, "fixtures/signoff"),
      sandboxDir: sandbox,
      env: { XCAT_URL: emulator.url, XCAT_USERNAME: "root", XCAT_PASSWORD: EMULATOR_DEFAULT_PASSWORD },
    });
    workspace = ws;
    await ws.up();
    // GITHUB_SHA as GitHub Actions sets it: the commit the review is of.
    const script = (mode: string) =>
      ws.exec("bash", [reviewScript, mode], {
        allowFailure: true,
        env: { STACK: ws.stackName, GITHUB_SHA: "0123456789abcdef" },
      });
    const reviewDir = join(ws.programDir, ".xcat-review");

    // The pull request: login01's bmc moves. The review shows the change and the value it pins.
    await ws.setConfig("login01Bmc", "10.1.200.11");
    const review = await script("preview");
    expect(review.exitCode, review.stderr).toBe(0);
    expect(review.stdout).toContain("~ bmc: 10.1.200.1 → 10.1.200.11 on login01 (1 node)");
    expect(review.stdout).toContain(
      "Pinned for the apply (xCAT's values now; review.sh up refuses if one moves):\n  login01 bmc 10.1.200.1\n",
    );
    const markdown = await readFile(join(reviewDir, "review.md"), "utf8");
    expect(markdown).toContain("- login01 bmc 10.1.200.1");
    // The comment names what an approval of it approves (issue #37 item 6).
    const planSha = createHash("sha256")
      .update(await readFile(join(reviewDir, "plan.json")))
      .digest("hex");
    expect(markdown).toContain(
      `Commit \`0123456789abcdef\`, stack \`${ws.stackName}\`, management node \`${emulator.url}\`, plan sha256 \`${planSha}\``,
    );
    expect(existsSync(join(reviewDir, "pins.json"))).toBe(true);

    // After the approval, an administrator sets login01's bmc and ip by hand.
    await byHand("login01", { bmc: "10.1.200.99", ip: "10.0.0.111" });
    const writesBefore = writes();
    const refused = await script("up");
    expect(refused.exitCode, refused.stdout + refused.stderr).toBe(4);
    expect(refused.stderr).toContain("login01 bmc: reviewed 10.1.200.1, now 10.1.200.99");
    // Only the attribute the plan changes blocks: ip is not pinned, so not named.
    expect(refused.stderr).not.toContain("login01 ip");
    expect(refused.stderr).toContain("Nothing was applied");
    expect(refused.stdout).not.toContain("Updating (");
    expect(writes()).toEqual(writesBefore);
    expect(emulator.state.getObject("node", "login01")).toMatchObject({ bmc: "10.1.200.99" });

    // The bmc back as reviewed; the hand-set ip stays. The apply goes ahead, writes the reviewed
    // bmc and leaves the ip no change touches as it was set by hand.
    await byHand("login01", { bmc: "10.1.200.1" });
    const writesBeforeApply = writes();
    const applied = await script("up");
    expect(applied.exitCode, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain("The values the review pinned still hold (1).");
    expect(await ws.lastChanges()).toMatchObject({ update: 1 });
    expect(emulator.state.getObject("node", "login01")).toMatchObject({
      bmc: "10.1.200.11",
      ip: "10.0.0.111",
      bmcpassword: "signoff-Bmc-Pw7q",
    });
    const putsDuringApply =
      (writes()["PUT /nodes/{noderange}"] ?? 0) - (writesBeforeApply["PUT /nodes/{noderange}"] ?? 0);
    expect(putsDuringApply).toBe(1);
    // The job's log, the merge's record, shows the value written, old and new (issue #37 item 6),
    // and no secret: the program's bmcpassword is a secret, shown as [secret] if at all.
    expect(applied.stdout).toMatch(/bmc\s*: "10\.1\.200\.1" => "10\.1\.200\.11"/);
    for (const text of [
      review.stdout,
      review.stderr,
      applied.stdout,
      applied.stderr,
      markdown,
      await readFile(join(reviewDir, "pins.json"), "utf8"),
      await readFile(join(reviewDir, "up.log"), "utf8"),
    ])
      expect(text).not.toContain("signoff-Bmc-Pw7q");

    // A pull request the policy pack refuses (login01 given login02's BMC): no plan, and a comment
    // that says why, naming the rule.
    await ws.setConfig("login01Bmc", "10.1.200.2");
    const refusedByPolicy = await script("preview");
    expect(refusedByPolicy.exitCode, refusedByPolicy.stderr).toBe(1);
    expect(existsSync(join(reviewDir, "plan.json"))).toBe(false);
    const comment = await readFile(join(reviewDir, "review.md"), "utf8");
    expect(comment).toContain("the preview failed, nothing to approve");
    expect(comment).toContain("unique-node-bmc");
    expect(comment).toMatch(/bmc 10\.1\.200\.2 is given to both Node "login0[12]"/);
  });

  // Issue #37 item 2: the review of an unrelated change lists what was changed or deleted by hand
  // since the last apply, and the apply leaves the cluster as the program says.
  it("a review of an unrelated change lists a node deleted by hand and two values changed by hand as drift it puts back, and the apply does", async () => {
    const ws = workspace;
    if (ws === undefined) throw new Error("the test before brings the stack up");
    const script = (mode: string) =>
      ws.exec("bash", [reviewScript, mode], { allowFailure: true, env: { STACK: ws.stackName } });
    // The program as applied (login01's bmc .11). Since the apply, login01's ip has been .111 (set
    // by hand before it, and kept); now its arch is changed and login02 is deleted, by hand.
    await ws.setConfig("login01Bmc", "10.1.200.11");
    await byHand("login01", { arch: "ppc64le" });
    const admin = new XcatClient({
      url: emulator.url,
      username: "root",
      password: EMULATOR_DEFAULT_PASSWORD,
    });
    try {
      await admin.nodes.delete("login02");
    } finally {
      await admin.close();
    }
    // The pull request: a node added, which has nothing to do with the hand edits.
    await ws.setConfig("login03", "true");
    const review = await script("preview");
    expect(review.exitCode, review.stderr).toBe(0);
    const lines = review.stdout.split("\n");
    expect(lines).toEqual(
      expect.arrayContaining([
        "! 2 objects changed or deleted by hand on the management node, put back as the program says: login[01-02]",
        "~ arch: ppc64le (changed by hand) → x86_64 on login01 (1 node)",
        "~ ip: 10.0.0.111 (changed by hand) → 10.0.0.11 on login01 (1 node)",
        "+ 1 node login02 in group login (deleted by hand, re-created)",
        "+ 1 node login03 in group login",
      ]),
    );
    expect(lines.filter((line) => line.includes("by hand"))).toHaveLength(4);
    // The state is as the last apply left it: the review's refresh was in memory.
    expect((await ws.exportState()).resources.map((resource) => resource.urn)).toContainEqual(
      expect.stringMatching(/::login02$/),
    );

    const applied = await script("up");
    expect(applied.exitCode, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain(
      "Refreshing the 2 object(s) the review showed as changed or deleted by hand:",
    );
    expect(await ws.lastChanges()).toMatchObject({ create: 2, update: 1 });
    expect(emulator.state.getObject("node", "login01")).toMatchObject({
      arch: "x86_64",
      ip: "10.0.0.11",
      bmc: "10.1.200.11",
    });
    for (const node of ["login02", "login03"])
      expect(emulator.state.getObject("node", node)).toMatchObject({ groups: "login,all", mgt: "ipmi" });
    // Nothing is left between the program and the cluster.
    const after = await ws.run(["preview", "--refresh", "--expect-no-changes"], {
      allowFailure: true,
    });
    expect(after.exitCode, after.stdout + after.stderr).toBe(0);
  });
});
