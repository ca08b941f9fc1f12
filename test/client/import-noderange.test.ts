/**
 * `pulumi-xcat import --noderange` against a fresh in-process emulator: what it leaves out is said
 * once per kind (site was said twice: the site setting was asked for at two places).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { run } from "../../src/cli/import/run";
import { type RunningEmulator, startEmulator } from "../../src/emulator";

describe("import --noderange", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ password: "imp-pw", seedCluster: "racks:2x3" });
  });
  afterAll(async () => emulator?.close());

  it("says once each cluster-wide kind it leaves out", async () => {
    const said: string[] = [];
    const write = vi.spyOn(process.stderr, "write").mockImplementation((text) => {
      said.push(String(text));
      return true;
    });
    const dir = mkdtempSync(join(tmpdir(), "import-noderange-"));
    const out = join(dir, "out");
    writeFileSync(join(dir, "password"), "imp-pw\n");
    let code: number;
    try {
      code = await run([
        "--url",
        emulator.url,
        "--username",
        "root",
        "--password-file",
        join(dir, "password"),
        "--noderange",
        "r01n[01-02]",
        "--out",
        out,
      ]);
    } finally {
      write.mockRestore();
    }
    expect(code, said.join("")).toBe(0);
    const leftOut = said.filter((line) => line.includes("left out: "));
    for (const kind of ["networks", "policy", "site"])
      expect(leftOut.filter((line) => line.includes(`left out: ${kind}:`))).toHaveLength(1);
  });
});
