/**
 * The step after the demo, as a new admin takes it (issue #29 item 1): `pulumi-xcat import` of
 * the emulator's cluster (the packed package's own bin, default account) into a new directory,
 * then exactly the lines of the generated README's "First run" section, in a fresh HOME and
 * PULUMI_HOME (no Pulumi login, no config; the backend is the README's PULUMI_BACKEND_URL), reach a clean first `up` that writes nothing to xCAT.
 *
 * What a person supplies is only what the README asks for: XCAT_PASSWORD (as for the import),
 * PULUMI_CONFIG_PASSPHRASE, each secret at its prompt, and "yes" to `pulumi up`'s question
 * (PULUMI_SKIP_CONFIRMATIONS). One line is stood in for: `npm install`, whose result (the packed
 * pulumi-xcat, @pulumi/pulumi, typescript) the sandbox already holds; it is linked in instead, as a
 * full install of the project's dependencies does not fit an e2e file's minute and needs the
 * npm registry.
 */
import { execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";

/** The BMC passwords the `racks:` seed holds (src/emulator/seed-cluster.ts), as the import e2e gives them. */
const SEED_SECRETS: Record<string, string> = {
  "compute-bmcpassword": "rack-bmc-secret",
  "login01-bmcpassword": "login-bmc-secret",
  "login02-bmcpassword": "login-bmc-secret",
};

function writes(emulator: RunningEmulator): Record<string, number> {
  return Object.fromEntries(
    Object.entries(emulator.stats().byRoute).filter(
      ([route]) => /^(POST|PUT|DELETE|PATCH) /.test(route) && route !== "POST /tokens",
    ),
  );
}

/** The indented command lines of the README's "First run" section. */
function firstRunCommands(readme: string): string[] {
  const section = readme.split("\n## First run\n")[1]?.split("\n## ")[0] ?? "";
  return section
    .split("\n")
    .filter((line) => line.startsWith("    "))
    .map((line) => line.slice(4));
}

/** Runs one line as a shell would; `input` is what the person types at its prompt. */
function shell(line: string, cwd: string, env: NodeJS.ProcessEnv, input = ""): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn("bash", ["-euo", "pipefail", "-c", line], { cwd, env });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.stdin.end(input);
    child.on("error", fail);
    child.on("exit", (code) =>
      code === 0 ? done(output) : fail(new Error(`\`${line}\` exited ${code}:\n${output}`)),
    );
  });
}

describe("import, then the generated README's first-run lines, from a fresh HOME", () => {
  let emulator: RunningEmulator;
  let home: string;
  let out: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    emulator = await startEmulator({ seedCluster: "racks:1x4" });
    home = await mkdtemp(join(tmpdir(), "pulumi-xcat-first-run-home-"));
    out = join(home, "my-cluster");
    await mkdir(out);
    const { PULUMI_BACKEND_URL, PULUMI_HOME, PULUMI_ACCESS_TOKEN, BASH_ENV, ...inherited } = process.env;
    await mkdir(join(home, ".pulumi", "backend"), { recursive: true });
    env = {
      ...inherited,
      HOME: home,
      // pulumi takes `~` (login --local) from the account, not from HOME: the test takes the
      // README's other way, PULUMI_BACKEND_URL, so that it never touches the account's ~/.pulumi.
      PULUMI_HOME: join(home, ".pulumi"),
      PULUMI_BACKEND_URL: `file://${join(home, ".pulumi", "backend")}`,
      XCAT_PASSWORD: EMULATOR_DEFAULT_PASSWORD,
      PULUMI_CONFIG_PASSPHRASE: "first-run-passphrase",
      PULUMI_SKIP_CONFIRMATIONS: "true",
      PULUMI_SKIP_UPDATE_CHECK: "true",
    };
  });

  afterAll(async () => {
    await emulator?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it("reaches a clean first up that writes nothing", { timeout: 600_000 }, async () => {
    const bin = resolve(inject("e2eSandbox"), "node_modules", ".bin", "pulumi-xcat");
    await promisify(execFile)(bin, ["import", "--url", emulator.url, "--username", "root", "--out", out], {
      env,
    });
    const readme = await readFile(join(out, "README.md"), "utf8");
    const commands = firstRunCommands(readme);
    expect(commands[0]).toBe(`cd ${out}`);
    expect(commands).toContain(
      "pulumi login --local        # the state in ~/.pulumi; a team sets PULUMI_BACKEND_URL to its backend instead",
    );
    expect(commands.some((line) => line.startsWith("pulumi config set xcat:url "))).toBe(true);
    expect(commands).toContain("pulumi config set xcat:username root");

    let cwd = home;
    for (const line of commands) {
      const cd = /^cd (\S+)$/.exec(line);
      if (cd) {
        cwd = resolve(cwd, cd[1] as string);
        continue;
      }
      if (line === "npm install") {
        await symlink(join(inject("e2eSandbox"), "node_modules"), join(cwd, "node_modules"));
        continue;
      }
      process.stderr.write(`first run: ${line}\n`);
      const prompted = /^pulumi config set --secret (\S+)\s+#/.exec(line);
      await shell(line, cwd, env, prompted ? SEED_SECRETS[prompted[1] as string] : "");
    }
    expect(writes(emulator)).toEqual({});
    const preview = await shell("pulumi preview --expect-no-changes", cwd, env);
    expect(preview).toMatch(/unchanged/);
    expect(preview).not.toContain("[secret]-");
  });
});
