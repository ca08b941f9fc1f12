/**
 * The xcat-emulator command (issue item 1): first stdout line, exit 0 on SIGTERM, exit 2 on bad
 * flags. Runs the built dist/emulator/cli.js (built here when missing). How fast it starts is a
 * figure of `npm run bench`, not a bound here: a busy machine makes any start slow (issue #40).
 */

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EMULATOR_DEFAULT_PASSWORD } from "../../src/emulator";
import { parseArgs } from "../../src/emulator/cli";

const root = join(__dirname, "..", "..");
const cli = join(root, "dist", "emulator", "cli.js");

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.on("exit", (code) => reject(new Error(`exited ${code} before printing`)));
  });
}

describe("xcat-emulator CLI", () => {
  beforeAll(() => {
    if (!existsSync(cli))
      execFileSync(process.execPath, [
        join(root, "node_modules", "typescript", "bin", "tsc"),
        "-p",
        join(root, "tsconfig.build.json"),
      ]);
  }, 120_000);

  it("prints the listening line first, serves, and exits 0 on SIGTERM", async () => {
    const child = spawn(process.execPath, [cli, "--port", "0", "--seed", "3"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const line = await firstLine(child);
    const match = /^xcat-emulator listening on (http:\/\/127\.0\.0\.1:\d+\/xcatws)$/.exec(line);
    expect(match).not.toBeNull();
    const res = await fetch(`${match?.[1]}/nodes?userName=root&userPW=${EMULATOR_DEFAULT_PASSWORD}`);
    expect(res.status).toBe(200);
    const exit = new Promise<number | null>((resolve) => child.on("exit", resolve));
    child.kill("SIGTERM");
    expect(await exit).toBe(0);
  });

  it("rejects bad flags with exit code 2", () => {
    for (const args of [
      ["--port", "x"],
      ["--latency", "5"],
      ["--fault-rate", "2"],
      ["--bogus"],
      ["--xcat-version", "2.15"],
    ]) {
      let status: number | null = null;
      try {
        execFileSync(process.execPath, [cli, ...args], { stdio: "pipe" });
      } catch (error) {
        status = (error as { status: number | null }).status;
      }
      expect(status, args.join(" ")).toBe(2);
    }
  });

  it("--xcat-version picks the release; without it the emulator is the newest", () => {
    const { options } = parseArgs(["--xcat-version", "2.16.5"]);
    expect(options.xcatVersion).toBe("2.16.5");
    expect(parseArgs([]).options.xcatVersion).toBeUndefined();
  });
});
