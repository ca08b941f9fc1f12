/**
 * The import round trip on the real engine: `pulumi-xcat import` reads a seeded cluster of a few
 * hundred nodes, and the program it writes type-checks, adopts every object on its first `up`
 * without a single write reaching xCAT, and previews clean afterwards.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { run as importCluster } from "../../src/cli/import/run";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { PulumiWorkspace } from "./support/pulumi-workspace";

const XCAT_PASSWORD = "import-e2e";
/** PULUMI_XCAT_IMPORT_SEED=demo-600 runs the same test on the 600-node bar. */
const SEED = process.env.PULUMI_XCAT_IMPORT_SEED ?? "racks:10x30";

/** Requests that could change xCAT, per route (logins aside). */
function writes(emulator: RunningEmulator): Record<string, number> {
  return Object.fromEntries(
    Object.entries(emulator.stats().byRoute).filter(
      ([route]) => /^(POST|PUT|DELETE|PATCH) /.test(route) && route !== "POST /tokens",
    ),
  );
}

describe(`pulumi-xcat import round trip (${SEED})`, () => {
  let emulator: RunningEmulator;
  let out: string;
  let workspace: PulumiWorkspace;
  let program: string;

  beforeAll(async () => {
    emulator = await startEmulator({ password: XCAT_PASSWORD, seedCluster: SEED });
    out = await mkdtemp(join(tmpdir(), "pulumi-xcat-import-"));
    const before = emulator.stats().total;
    const started = Date.now();
    process.env.XCAT_PASSWORD = XCAT_PASSWORD;
    try {
      expect(await importCluster(["--url", emulator.url, "--username", "root", "--out", out])).toBe(0);
    } finally {
      delete process.env.XCAT_PASSWORD;
    }
    const requests = emulator.stats().total - before;
    process.stderr.write(`import: ${requests} requests, ${Date.now() - started} ms\n`);
    expect(requests).toBeLessThanOrEqual(10); // one read per kind, never one per node
    program = await readFile(join(out, "index.ts"), "utf8");
    workspace = await PulumiWorkspace.create({ programDir: out, sandboxDir: inject("e2eSandbox") });
    await workspace.setConfig("xcat:url", emulator.url);
    await workspace.setConfig("xcat:username", "root");
    await workspace.setConfig("xcat:password", XCAT_PASSWORD, { secret: true });
    // The secrets the generated README asks for, with the values the seed holds.
    await workspace.setConfig("compute-bmcpassword", "rack-bmc-secret", { secret: true });
    await workspace.setConfig("login01-bmcpassword", "login-bmc-secret", { secret: true });
    await workspace.setConfig("login02-bmcpassword", "login-bmc-secret", { secret: true });
  });

  afterAll(async () => {
    await workspace?.dispose();
    await emulator?.close();
    if (out) await rm(out, { recursive: true, force: true });
  });

  it("writes a short program: racks as one loop, no password in it, every resource adopted and protected", async () => {
    // Lines over 120 columns are broken one property per line, so a few more lines than before.
    expect(program.split("\n").length).toBeLessThan(300);
    expect(program.split("\n").filter((line) => line.length > 120)).toEqual([]);
    expect(program).toContain("for (const run of computeRuns)");
    // A run's row, on one line or broken one property per line.
    expect(program).toMatch(/prefix: "r01n",\s+first: 1,\s+last: 30,\s+groups: \["compute","rack01","all"\]/);
    expect(program).toContain('ip: "|r(\\\\d+)n(\\\\d+)|10.0.($1+0).($2+0)|"'); // the group regex, kept
    expect(program).toContain("provmethod: rhels86X8664NetbootCompute.name");
    expect(program).toContain("vmhost: kvmhost01.name");
    expect(program).not.toMatch(/secret"|rack-bmc-secret|login-bmc-secret/);
    expect(program).toContain('config.requireSecret("compute-bmcpassword")');
    const readme = await readFile(join(out, "README.md"), "utf8");
    expect(readme).toContain("pulumi config set --secret compute-bmcpassword");
    expect(readme).toContain("xcatconfig");
  });

  it("type-checks against the package's public exports", async () => {
    const tsc = join(inject("e2eSandbox"), "node_modules", "typescript", "bin", "tsc");
    await promisify(execFile)(process.execPath, [
      tsc,
      "-p",
      join(workspace.programDir, "tsconfig.json"),
      "--noEmit",
    ]);
  });

  it("the first up adopts everything and sends no write to xCAT", async () => {
    expect(writes(emulator)).toEqual({});
    const snapshot = emulator.state.snapshot();
    const changes = await workspace.up();
    expect(Object.keys(changes)).toEqual(["create"]);
    expect(writes(emulator)).toEqual({});
    expect(emulator.state.snapshot()).toBe(snapshot);
  });

  it("preview --expect-no-changes passes afterwards", async () => {
    const preview = await workspace.preview(["--expect-no-changes"]);
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
  });
});
