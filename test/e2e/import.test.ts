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
import type { RunningEmulator } from "../../src/emulator";
import { PulumiWorkspace } from "./support/pulumi-workspace";
import {
  planRealCluster,
  type RealCluster,
  removeRealCluster,
  seedRealCluster,
} from "./support/real-cluster";
import { type E2eTarget, objectTablesSnapshot, realNode, startTarget, tlsArgs } from "./support/target";

const XCAT_PASSWORD = "import-e2e";
/**
 * PULUMI_XCAT_IMPORT_SEED=demo-600 runs the same test on the 600-node bar. On a real management
 * node the test writes a small prefixed cluster through REST instead (support/real-cluster.ts)
 * and imports its nodes (--noderange) with everything else the node holds.
 */
const SEED = realNode
  ? "a prefixed 2x4 cluster on a real node"
  : (process.env.PULUMI_XCAT_IMPORT_SEED ?? "racks:10x30");

/** Requests that could change xCAT, per route (logins aside). */
function writes(emulator: RunningEmulator): Record<string, number> {
  return Object.fromEntries(
    Object.entries(emulator.stats().byRoute).filter(
      ([route]) => /^(POST|PUT|DELETE|PATCH) /.test(route) && route !== "POST /tokens",
    ),
  );
}

describe(`pulumi-xcat import round trip (${SEED})`, () => {
  let target: E2eTarget;
  let emulator: RunningEmulator | undefined;
  let cluster: RealCluster | undefined;
  let out: string;
  let workspace: PulumiWorkspace;
  let program: string;

  beforeAll(async () => {
    target = await startTarget({ password: XCAT_PASSWORD, seedCluster: SEED });
    emulator = target.emulator;
    if (!emulator) {
      cluster = planRealCluster(target.prefix);
      await seedRealCluster(target.admin, cluster);
    }
    out = await mkdtemp(join(tmpdir(), "pulumi-xcat-import-"));
    const before = emulator?.stats().total ?? 0;
    const started = Date.now();
    process.env.XCAT_PASSWORD = target.password;
    try {
      const args = ["--url", target.url, "--username", target.username, "--out", out, ...tlsArgs(target)];
      if (cluster) args.push("--noderange", cluster.nodes);
      expect(await importCluster(args)).toBe(0);
    } finally {
      delete process.env.XCAT_PASSWORD;
    }
    process.stderr.write(`import: ${Date.now() - started} ms\n`);
    if (emulator) {
      const requests = emulator.stats().total - before;
      process.stderr.write(`import: ${requests} requests\n`);
      expect(requests).toBeLessThanOrEqual(10); // one read per kind, never one per node
    }
    program = await readFile(join(out, "index.ts"), "utf8");
    workspace = await PulumiWorkspace.create({ programDir: out, sandboxDir: inject("e2eSandbox") });
    // The secrets the generated README asks for, with the values the seed holds.
    const secrets = cluster?.secrets ?? {
      "compute-bmcpassword": "rack-bmc-secret",
      "login01-bmcpassword": "login-bmc-secret",
      "login02-bmcpassword": "login-bmc-secret",
    };
    await target.configure(workspace, secrets);
  });

  afterAll(async () => {
    await workspace?.dispose();
    if (cluster) await removeRealCluster(target.admin, cluster);
    await target?.close();
    if (out) await rm(out, { recursive: true, force: true });
  });

  it("writes a short program: racks as one loop, no password in it, every resource adopted and protected", async () => {
    const readme = await readFile(join(out, "README.md"), "utf8");
    expect(program).not.toMatch(/secret"|rack-bmc-secret|login-bmc-secret/);
    // Lines over 120 columns are broken one property per line, so a few more lines than before.
    expect(program.split("\n").filter((line) => line.length > 120)).toEqual([]);
    if (cluster) {
      const p = target.prefix;
      expect(program).toMatch(
        new RegExp(
          `prefix: "${p}r01n",\\s+first: 1,\\s+last: ${cluster.perRack},\\s+groups: \\["${p}compute","${p}rack01","all"\\]`,
        ),
      );
      expect(program).toContain(`ip: "|${p}r(\\\\d+)n(\\\\d+)|10.0.($1+0).($2+0)|"`); // the group regex, kept
      expect(program).toContain(`config.requireSecret("${p}compute-bmcpassword")`);
      expect(readme).toContain(`pulumi config set --secret ${p}compute-bmcpassword`);
      return;
    }
    // The whole cluster was read: what xcatconfig made is left out and said so. (On a real node the
    // import is scoped by --noderange, which leaves site and policy out for that reason instead.)
    expect(readme).toContain("xcatconfig");
    expect(program.split("\n").length).toBeLessThan(300);
    expect(program).toContain("for (const run of computeRuns)");
    // A run's row, on one line or broken one property per line.
    expect(program).toMatch(/prefix: "r01n",\s+first: 1,\s+last: 30,\s+groups: \["compute","rack01","all"\]/);
    expect(program).toContain('ip: "|r(\\\\d+)n(\\\\d+)|10.0.($1+0).($2+0)|"'); // the group regex, kept
    expect(program).toContain("provmethod: rhels86X8664NetbootCompute.name");
    expect(program).toContain("vmhost: kvmhost01.name");
    expect(program).toContain('config.requireSecret("compute-bmcpassword")');
    expect(readme).toContain("pulumi config set --secret compute-bmcpassword");
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
    if (emulator) expect(writes(emulator)).toEqual({});
    const snapshot = emulator ? emulator.state.snapshot() : await objectTablesSnapshot(target.admin);
    const changes = await workspace.up();
    expect(Object.keys(changes)).toEqual(["create"]);
    if (emulator) expect(writes(emulator)).toEqual({});
    expect(emulator ? emulator.state.snapshot() : await objectTablesSnapshot(target.admin)).toBe(snapshot);
  });

  it("preview --expect-no-changes passes afterwards", async () => {
    const preview = await workspace.preview(["--expect-no-changes"]);
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
  });
});
