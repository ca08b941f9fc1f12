/**
 * `pulumi-xcat review` and `drift` on YAML stacks of the native provider (issue #36 item 4),
 * through the real engine and the packed package's bin, as a user runs them:
 * - a Deployment of r02n[01-10] (a noderange) on the default provider: review --fail-on reimage
 *   exits 3 naming the 10 nodes (the plan printed `+ 1 index:Deployment` and exited 0),
 *   and drift then says all 10 nodes are under code (it said "0 of 36"); a reviewed plan of that
 *   stack applied with examples/ci/review.sh, refused first while a reviewed value is edited by
 *   hand on the management node (support-matrix.md N16);
 * - two xCAT management nodes and a Confluent server, an explicit provider each
 *   (test/e2e/programs/native-review-mns): drift lists each and counts coverage per management
 *   node (a node b01 made by hand on mnA is not under code there because b01 is on mnB), review
 *   names the providers of a change on mnA and mnC, and no password shows in any output.
 */
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { XcatClient } from "../../src/client";
import { ConfluentClient } from "../../src/client/confluent";
import { type RunningConfluentEmulator, startConfluentEmulator } from "../../src/confluent-emulator";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { PulumiWorkspace } from "./support/pulumi-workspace";

const programs = resolve(import.meta.dirname, "programs");
const reviewScript = resolve(import.meta.dirname, "../../examples/ci/review.sh");
/** pulumi-resource-xcat and pulumi-xcat from the installed package, as `npm install` puts them on a project's PATH. */
const onPath = () => ({
  PATH: `${join(inject("e2eSandbox"), "node_modules", ".bin")}:${process.env.PATH ?? ""}`,
});
/** No XCAT_* of the test's own environment: the stack's config and providers say where to go. */
const NO_XCAT_ENV = { XCAT_URL: "", XCAT_USERNAME: "", XCAT_PASSWORD: "", XCAT_TOKEN: "" };

function cli(workspace: PulumiWorkspace, command: "review" | "drift", ...args: string[]) {
  return workspace.exec("pulumi-xcat", [command, ...args], { allowFailure: true, env: NO_XCAT_ENV });
}

/** Replaces the program with one of its stages (YAML has no conditionals). */
async function useStage(workspace: PulumiWorkspace, program: string, stage: string) {
  await copyFile(join(programs, program, "stages", stage), join(workspace.programDir, "Pulumi.yaml"));
}

async function savePlan(workspace: PulumiWorkspace): Promise<string> {
  const file = join(workspace.programDir, "plan.json");
  await writeFile(file, (await workspace.run(["preview", "--json"])).stdout);
  return file;
}

describe("a YAML Deployment of 10 nodes on the stack's management node", () => {
  let emulator: RunningEmulator;
  let workspace: PulumiWorkspace;

  beforeAll(async () => {
    emulator = await startEmulator({ bootSeconds: 0.5 });
    const admin = new XcatClient({
      url: emulator.url,
      username: "root",
      password: EMULATOR_DEFAULT_PASSWORD,
    });
    // DHCP elsewhere: nodeset asks for no reservation (xnba.pm master:857-872), as on the roll tests' sites.
    await admin.globalconf.setAttrs({ dhcpsetup: "n" });
    await admin.close();
    workspace = await PulumiWorkspace.create({
      programDir: join(programs, "native-review"),
      sandboxDir: inject("e2eSandbox"),
      env: onPath(),
    });
    await workspace.setConfigs(
      { "xcat:url": emulator.url, "xcat:username": "root" },
      { "xcat:password": EMULATOR_DEFAULT_PASSWORD },
    );
    await workspace.up();
  });

  afterAll(async () => {
    await workspace?.dispose();
    await emulator?.close();
  });

  it("review --fail-on reimage exits 3 on its plan, counting the noderange's 10 nodes", async () => {
    await useStage(workspace, "native-review", "deploy.yaml");
    const plan = await savePlan(workspace);
    const review = await cli(workspace, "review", plan, "--fail-on", "reimage");
    expect(review.exitCode, review.stderr).toBe(3);
    expect(review.stdout.trimEnd().split("\n")).toEqual([
      "! 10 nodes deployed by a Deployment: r02n[01-10]",
      "+ 1 Deployment rack02-image",
      "    deploys rocky9.4-x86_64-netboot-compute: r02n[01-10] (10 nodes)",
      "1 to create, 0 to adopt, 0 to update, 0 to replace, 0 to delete, 12 unchanged",
    ]);
    expect(review.stderr).toContain("planned reimage (--fail-on)");
    expect((await cli(workspace, "review", plan, "--fail-on", "delete,power,group,adopt")).exitCode).toBe(0);
  });

  it("drift on that stack says all its nodes are under code, then names a node made by hand", async () => {
    await workspace.up();
    const clean = await cli(workspace, "drift");
    expect(clean.exitCode, clean.stderr).toBe(0);
    expect(clean.stdout).toContain("10 of 10 nodes under code on the stack's management node");

    const admin = new XcatClient({
      url: emulator.url,
      username: "root",
      password: EMULATOR_DEFAULT_PASSWORD,
    });
    await admin.nodes.create("hand01", { groups: "compute,all", ip: "10.2.0.99" });
    await admin.close();
    const found = await cli(workspace, "drift");
    expect(found.exitCode, found.stderr).toBe(3);
    expect(found.stdout).toContain(
      "? 1 node on the stack's management node not managed by the stack: hand01",
    );
    expect(found.stdout).toContain("10 of 11 nodes under code on the stack's management node");
  });

  it("review.sh applies a reviewed plan on the YAML stack, refusing it first while a reviewed value is edited by hand", async () => {
    const program = join(workspace.programDir, "Pulumi.yaml");
    await writeFile(program, (await readFile(program, "utf8")).replace("ip: 10.2.0.3\n", "ip: 10.2.0.33\n"));
    const script = (mode: string) =>
      workspace.exec("bash", [reviewScript, mode], {
        allowFailure: true,
        env: {
          STACK: workspace.stackName,
          XCAT_URL: emulator.url,
          XCAT_USERNAME: "root",
          XCAT_PASSWORD: EMULATOR_DEFAULT_PASSWORD,
        },
      });
    const review = await script("preview");
    expect(review.exitCode, review.stdout + review.stderr).toBe(0);
    expect(review.stdout).toContain("~ ip: 10.2.0.3 → 10.2.0.33 on r02n03 (1 node)");
    expect(review.stdout).toContain("  r02n03 ip 10.2.0.3\n");

    const admin = new XcatClient({
      url: emulator.url,
      username: "root",
      password: EMULATOR_DEFAULT_PASSWORD,
    });
    try {
      await admin.nodes.update("r02n03", { ip: "10.2.0.99" });
      const refused = await script("up");
      expect(refused.exitCode, refused.stdout + refused.stderr).toBe(4);
      expect(refused.stderr).toContain("r02n03 ip: reviewed 10.2.0.3, now 10.2.0.99");
      expect(refused.stdout).not.toContain("Updating (");
      expect(emulator.state.getObject("node", "r02n03")).toMatchObject({ ip: "10.2.0.99" });
      await admin.nodes.update("r02n03", { ip: "10.2.0.3" });
    } finally {
      await admin.close();
    }
    const applied = await script("up");
    expect(applied.exitCode, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain("The values the review pinned still hold (1).");
    expect(await workspace.lastChanges()).toMatchObject({ update: 1 });
    expect(emulator.state.getObject("node", "r02n03")).toMatchObject({ ip: "10.2.0.33" });
  });
});

const PASSWORDS = { a: "mn-a-Rv-3318", b: "mn-b-Rv-7702", c: "cf-c-Rv-5120" };

describe("two xCAT management nodes and a Confluent server in one YAML stack, an explicit provider each", () => {
  let mnA: RunningEmulator;
  let mnB: RunningEmulator;
  let mnC: RunningConfluentEmulator;
  let workspace: PulumiWorkspace;

  beforeAll(async () => {
    mnA = await startEmulator({ password: PASSWORDS.a });
    mnB = await startEmulator({ user: "admin-b", password: PASSWORDS.b });
    mnC = await startConfluentEmulator({ user: "admin-c", password: PASSWORDS.c });
    workspace = await PulumiWorkspace.create({
      programDir: join(programs, "native-review-mns"),
      sandboxDir: inject("e2eSandbox"),
      env: onPath(),
    });
    await workspace.run([
      "config",
      "set-all",
      ...[
        "--plaintext",
        `urlA=${mnA.url}`,
        "--plaintext",
        `urlB=${mnB.url}`,
        "--plaintext",
        `urlC=${mnC.url}`,
      ],
      ...["--secret", `passwordA=${PASSWORDS.a}`, "--secret", `passwordB=${PASSWORDS.b}`],
      ...["--secret", `passwordC=${PASSWORDS.c}`],
    ]);
    await workspace.up();
  });

  afterAll(async () => {
    await workspace?.dispose();
    await mnA?.close();
    await mnB?.close();
    await mnC?.close();
  });

  const A = () => `provider mnA (${mnA.url})`;
  const B = () => `provider mnB (${mnB.url})`;
  const C = () => `provider mnC (${mnC.url}, Confluent)`;

  it("drift lists each management node and counts coverage on each apart", async () => {
    // mnB's REST account admin-b has the policy row xCAT's documentation has one make by hand
    // for it (`mkdef -t policy 6 name=<user> rule=allow`): on mnB, and only there, it is unmanaged.
    const first = await cli(workspace, "drift");
    expect(first.exitCode, first.stderr).toBe(3);
    expect(first.stdout.trimEnd().split("\n")).toEqual([
      "Drift: 1 not managed by the stack (5 resources read).",
      `? 1 Policy on ${B()} not managed by the stack: 6`,
      `2 of 2 nodes under code on ${A()}`,
      `1 of 1 nodes under code on ${B()}`,
      `1 of 1 nodes under code on ${C()}`,
    ]);

    // By hand: on mnA a node named as mnB's b01, a02's ip changed; on Confluent a node of its own.
    const adminA = new XcatClient({ url: mnA.url, username: "root", password: PASSWORDS.a });
    await adminA.nodes.create("b01", { groups: "all", ip: "10.1.0.99" });
    await adminA.nodes.update("a02", { ip: "10.1.9.2" });
    await adminA.close();
    const adminC = new ConfluentClient({ url: mnC.url, username: "admin-c", password: PASSWORDS.c });
    await adminC.nodes.create("c99", { groups: ["everything"] });
    await adminC.close();

    const before = { a: mnA.stats(), b: mnB.stats() };
    const found = await cli(workspace, "drift");
    expect(found.exitCode, found.stderr).toBe(3);
    expect(found.stdout.trimEnd().split("\n")).toEqual([
      "Drift: 1 changed by hand, 3 not managed by the stack (5 resources read).",
      `~ ip changed by hand on a02 (1 node) on ${A()}`,
      "    a02: 10.1.0.2 → 10.1.9.2",
      `? 1 node on ${A()} not managed by the stack: b01`,
      `? 1 node on ${C()} not managed by the stack: c99`,
      `? 1 Policy on ${B()} not managed by the stack: 6`,
      `2 of 3 nodes under code on ${A()}`,
      `1 of 1 nodes under code on ${B()}`,
      `1 of 2 nodes under code on ${C()}`,
    ]);
    // Each xCAT management node was listed (nothing written: drift only reads).
    for (const [mn, start] of [
      [mnA, before.a],
      [mnB, before.b],
    ] as const) {
      const after = mn.stats();
      expect((after.byRoute["GET /nodes"] ?? 0) - (start.byRoute["GET /nodes"] ?? 0)).toBeGreaterThanOrEqual(
        1,
      );
      const writes = Object.keys(after.byRoute).filter(
        (route) =>
          /^(POST|PUT|DELETE) /.test(route) &&
          route !== "POST /tokens" &&
          after.byRoute[route] !== start.byRoute[route],
      );
      expect(writes).toEqual([]);
    }
    const json = JSON.parse((await cli(workspace, "drift", "--format", "json")).stdout);
    expect(json.coverage).toEqual([
      { managementNode: A(), nodes: { managed: 2, total: 3 } },
      { managementNode: B(), nodes: { managed: 1, total: 1 } },
      { managementNode: C(), nodes: { managed: 1, total: 2 } },
    ]);
    for (const password of Object.values(PASSWORDS))
      expect(found.stdout + found.stderr).not.toContain(password);
  });

  it("review names the provider of each change, on xCAT and on Confluent, and counts mnA's noderange there", async () => {
    await useStage(workspace, "native-review-mns", "change.yaml");
    const plan = await savePlan(workspace);
    const before = { a: mnA.stats(), b: mnB.stats() };
    const review = await cli(workspace, "review", plan, "--fail-on", "reimage");
    expect(review.exitCode, review.stderr).toBe(3);
    expect(review.stdout.trimEnd().split("\n")).toEqual([
      "! 2 nodes deployed by a Deployment: a[01-02] on provider mnA",
      "On provider mnA:",
      "~ ip: 10.1.0.1 → 10.1.0.9 on a01 (1 node)",
      "+ 1 Deployment aRoll",
      "    deploys rocky9.4-x86_64-netboot-compute: a[01-02] (2 nodes)",
      "On provider mnC:",
      "~ ip: 10.3.0.1 → 10.3.0.9 on c01 (1 node)",
      "1 to create, 0 to adopt, 2 to update, 0 to replace, 0 to delete, 7 unchanged",
    ]);
    // The noderange a0[1-2] was read where the Deployment runs, mnA (one table read), not on mnB.
    const reads = (mn: RunningEmulator, start: typeof before.a) =>
      (mn.stats().byRoute["GET /tables/{tablelist}/rows"] ?? 0) -
      (start.byRoute["GET /tables/{tablelist}/rows"] ?? 0);
    expect(reads(mnA, before.a)).toBe(1);
    expect(reads(mnB, before.b)).toBe(0);
    expect(
      (await cli(workspace, "review", plan, "--fail-on", "delete,replace,power,group,adopt,policy,site"))
        .exitCode,
    ).toBe(0);
    // With the unchanged resources listed, the preview carries the providers' url and backend.
    const sames = join(workspace.programDir, "plan-sames.json");
    await writeFile(sames, (await workspace.run(["preview", "--json", "--show-sames"])).stdout);
    const named = await cli(workspace, "review", sames);
    expect(named.stdout).toContain(`On ${A()}:`);
    expect(named.stdout).toContain(`On ${C()}:`);
    for (const password of Object.values(PASSWORDS))
      expect(review.stdout + review.stderr + named.stdout + named.stderr).not.toContain(password);
  });
});
