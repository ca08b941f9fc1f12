/**
 * The oldest Node.js the package runs on (src/supported-node.ts): the comparison, the sentence,
 * and, where this machine has an older node (Debian 12's or the system's Node.js 20, which is what
 * `node` is on PATH before the toolchain's Node 24), the command line and the native provider run
 * on it: each says the one sentence and exits 1 (a program's import of the package throws it),
 * where they used to crash inside undici.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isNodeTooOld, OLDEST_SUPPORTED_NODE, unsupportedNodeSentence } from "../../src/supported-node";

describe("the oldest supported Node.js", () => {
  it("compares versions by major, minor and patch", () => {
    expect(OLDEST_SUPPORTED_NODE).toBe("22.19.0");
    expect(isNodeTooOld("20.20.2")).toBe(true);
    expect(isNodeTooOld("22.18.9")).toBe(true);
    expect(isNodeTooOld("22.19.0")).toBe(false);
    expect(isNodeTooOld("22.20.0")).toBe(false);
    expect(isNodeTooOld("24.1.0")).toBe(false);
    expect(isNodeTooOld("100.0.0")).toBe(false);
  });

  it("says who needs what, the node it runs on and what to do", () => {
    expect(unsupportedNodeSentence("pulumi-xcat", "24.21.0", "/opt/node")).toBeUndefined();
    expect(unsupportedNodeSentence("pulumi-xcat", "20.20.2", "/usr/bin/node")).toBe(
      "pulumi-xcat needs Node.js 22.19.0 or newer, but runs on Node.js 20.20.2 (/usr/bin/node). " +
        "Put a newer node first on PATH: pulumi starts programs and provider plugins with the node it finds there.",
    );
  });
});

/** A node on this machine older than the package supports, if there is one. */
function olderNode(): string | undefined {
  for (const candidate of ["/usr/bin/node", "/usr/local/bin/node"]) {
    if (!existsSync(candidate)) continue;
    const version = spawnSync(candidate, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.trim();
    if (version && isNodeTooOld(version)) return candidate;
  }
  return undefined;
}
const old = olderNode();

describe.skipIf(old === undefined)(`on an older Node.js (${old})`, { timeout: 60_000 }, () => {
  it("pulumi-xcat says the sentence and exits 1 instead of crashing in undici", () => {
    const run = spawnSync(old as string, ["dist/cli/main.js", "import", "--url", "http://127.0.0.1:9"], {
      encoding: "utf8",
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^pulumi-xcat needs Node\.js 22\.19\.0 or newer, but runs on Node\.js 20\./);
    expect(run.stderr).not.toContain("bind");
  });

  it("a program's import of the package throws the sentence", () => {
    const run = spawnSync(old as string, ["-e", 'require("./dist/index.js")'], { encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "Error: pulumi-xcat needs Node.js 22.19.0 or newer, but runs on Node.js 20.",
    );
  });

  it("pulumi-resource-xcat says it and exits 1 before it prints a port", () => {
    const run = spawnSync(old as string, ["dist/native/main.js"], { encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^pulumi-resource-xcat needs Node\.js 22\.19\.0 or newer/);
  });
});
