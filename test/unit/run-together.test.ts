/**
 * scripts/run-together.mjs, which `npm test` runs its type-checks and linter with: the commands
 * run at the same time, each one's output is printed whole, and any failure fails the whole.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

const script = resolve(import.meta.dirname, "../../scripts/run-together.mjs");

async function runTogether(cwd: string, ...commands: string[]): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [script, ...commands], { cwd });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? "" };
  }
}

// Each test starts Node and a shell or two: seconds on a busy machine, so a generous limit.
describe("scripts/run-together.mjs", { timeout: 120_000 }, () => {
  let dir = "";
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("runs the commands at the same time: the first waits for a file only the second writes", async () => {
    dir = await mkdtemp(join(tmpdir(), "run-together-"));
    // Run one after the other, the first would wait forever (the test's timeout ends it).
    const result = await runTogether(
      dir,
      "while [ ! -f made-by-second ]; do sleep 0.02; done; echo first saw it",
      "echo second > made-by-second; echo second wrote it",
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("first saw it");
    expect(result.stdout).toContain("second wrote it");
  });

  it("prints each command's output whole, under the command", async () => {
    dir = await mkdtemp(join(tmpdir(), "run-together-"));
    const result = await runTogether(dir, "echo a1; sleep 0.05; echo a2", "echo b1; echo b2 >&2");
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    const a = lines.indexOf("> echo a1; sleep 0.05; echo a2");
    const b = lines.indexOf("> echo b1; echo b2 >&2");
    expect(lines.slice(a, a + 3)).toEqual(["> echo a1; sleep 0.05; echo a2", "a1", "a2"]);
    expect(lines.slice(b, b + 3)).toEqual(["> echo b1; echo b2 >&2", "b1", "b2"]);
  });

  it("fails when any command fails, naming it, after every command ended", async () => {
    dir = await mkdtemp(join(tmpdir(), "run-together-"));
    const result = await runTogether(dir, "exit 3", "sleep 0.05; echo still ran");
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("exit 3 failed (exit 3)");
    expect(result.stdout).toContain("still ran");
  });

  it("says how to use it when given no command", async () => {
    dir = "";
    const result = await runTogether(process.cwd());
    expect(result.code).toBe(2);
  });
});
