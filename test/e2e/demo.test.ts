/**
 * `npm run demo` is the README's main command: run its script (as with-toolchain.sh would) on a
 * small lab, with its own stack name and state directory so a developer's demo is untouched.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../src/emulator";

const repoRoot = resolve(import.meta.dirname, "../..");

function runDemo(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolvePromise) => {
    const child = spawn(
      process.execPath,
      [
        join(repoRoot, "scripts/demo.mjs"),
        ...["--racks", "1", "--nodes-per-rack", "4", "--vms", "1", "--destroy"],
      ],
      { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("close", (code) => resolvePromise({ code, output }));
  });
}

describe("npm run demo", () => {
  const stack = `e2e-demo-${process.pid}`;
  let stateDir: string | undefined;

  afterAll(async () => {
    if (stateDir) await rm(stateDir, { recursive: true, force: true });
    await rm(join(repoRoot, `Pulumi.${stack}.yaml`), { force: true });
  });

  it("creates the lab, shows a hand edit as a one-attribute diff, restores it, and destroys the lab", async () => {
    stateDir = await mkdtemp(join(tmpdir(), "pulumi-xcat-demo-"));
    const { code, output } = await runDemo({
      PULUMI_XCAT_DEMO_STATE: stateDir,
      PULUMI_XCAT_DEMO_STACK: stack,
    });
    expect(code, output).toBe(0);
    // 4 compute + 2 service/login + 1 KVM host + 1 VM node, 1 VM, 2 networks, 3 site attributes,
    // 2 images, 2 groups, a policy, a route, the compute deployment and power state, and the stack.
    expect(output).toMatch(/\+ 23 created/);
    // The racks came up with progress shown, and every compute node booted.
    // The Deployment's canary node boots first, then the rest of the rack.
    expect(output).toMatch(/r01n01: booted 1/);
    expect(output).toMatch(/r01n\[02-\d\d\]: .*booted \d+/);
    expect(output).toMatch(/\((\d+) compute nodes booted, \1 held on\)/);
    const drift = output.slice(
      output.indexOf("pulumi preview --refresh --diff"),
      output.indexOf("pulumi up --refresh"),
    );
    const planned = drift
      .slice(drift.indexOf("(update)"))
      .split("\n")
      .filter((line) => /^\s*~ .*=>/.test(line));
    expect(planned.map((line) => line.replace(/\s+/g, " ").trim())).toEqual([
      '~ ip : "10.0.1.99" => "10.0.1.1"',
    ]);
    expect(drift).toMatch(/~ 1 to update/);
    expect(output).toMatch(/~ 1 updated/);
    expect(output).toMatch(/r01n01 ip is 10\.0\.1\.1 again/);
    // Teardown (issue 16, item 1): the groups hold mgt and a BMC account, cleared together.
    expect(output).toMatch(/- 23 deleted/);
    expect(output).toMatch(/Then it destroyed the lab/);
    const leftOver = await startEmulator({ dataFile: join(stateDir, "xcat-emulator.sqlite") });
    try {
      for (const type of ["node", "group", "network", "osimage", "route"] as const) {
        expect(leftOver.state.listObjects(type), type).toEqual([]);
      }
    } finally {
      await leftOver.close();
    }
  });
});
