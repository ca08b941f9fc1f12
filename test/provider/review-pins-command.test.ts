/**
 * `pulumi-xcat pins save|check` (issue #37 item 1) against a fresh in-process emulator: save
 * records what xCAT holds for the attributes a plan changes, check refuses (exit 4) when one
 * moved or when the pins are of another plan, and both only read. The whole CI path is in
 * test/e2e/review-signoff.test.ts.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { run } from "../../src/cli/pins/pins-command";
import { XcatClient } from "../../src/client";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";

let emulator: RunningEmulator;
let admin: XcatClient;
let dir: string;

beforeAll(async () => {
  emulator = await startEmulator();
  admin = new XcatClient({ url: emulator.url, username: "root", password: EMULATOR_DEFAULT_PASSWORD });
  await admin.nodes.create("login01", {
    groups: "login,all",
    mgt: "ipmi",
    ip: "10.0.0.11",
    bmc: "10.1.200.1",
  });
  dir = await mkdtemp(join(tmpdir(), "pins-"));
});

afterAll(async () => {
  await admin?.close();
  await emulator?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs the command, returning its exit code and what it wrote to standard error. */
async function pins(args: string[]): Promise<{ code: number; stderr: string; stdout: string }> {
  let stderr = "";
  let stdout = "";
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  try {
    return { code: await run(args), stderr, stdout };
  } finally {
    err.mockRestore();
    out.mockRestore();
  }
}

const writes = () =>
  Object.entries(emulator.stats().byRoute)
    .filter(([route]) => /^(POST|PUT|DELETE) /.test(route) && route !== "POST /tokens")
    .reduce((sum, [, count]) => sum + count, 0);

describe("pulumi-xcat pins", () => {
  it("pins the value xCAT holds, refuses a moved one and pins of another plan, and writes nothing", async () => {
    const preview = join(dir, "preview.json");
    const plan = join(dir, "plan.json");
    const pinsFile = join(dir, "pins.json");
    await writeFile(
      preview,
      JSON.stringify({
        config: {
          "xcat:url": emulator.url,
          "xcat:username": "root",
          "xcat:password": EMULATOR_DEFAULT_PASSWORD,
        },
        steps: [
          {
            op: "update",
            urn: "urn:pulumi:dev::lab::pulumi-nodejs:dynamic/xcat:Node::login01",
            oldState: { inputs: { name: "login01", attributes: { ip: "10.0.0.11", bmc: "10.1.200.1" } } },
            newState: { inputs: { name: "login01", attributes: { ip: "10.0.0.11", bmc: "10.1.200.11" } } },
          },
        ],
      }),
    );
    await writeFile(plan, '{"resourcePlans":{}}\n');
    const writesBefore = writes();

    const saved = await pins(["save", preview, "--plan", plan, "--out", pinsFile]);
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stdout).toBe("login01 bmc 10.1.200.1\n");
    expect(JSON.parse(await readFile(pinsFile, "utf8")).pins).toEqual([
      { node: "login01", attribute: "bmc", reviewed: "10.1.200.1" },
    ]);
    expect((await pins(["check", pinsFile, "--plan", plan])).code).toBe(0);

    // Another plan than the one reviewed: refused, whatever the cluster holds.
    await writeFile(plan, '{"resourcePlans":{"other":{}}}\n');
    const otherPlan = await pins(["check", pinsFile, "--plan", plan]);
    expect(otherPlan.code).toBe(4);
    expect(otherPlan.stderr).toContain("pins the values of another review");
    await writeFile(plan, '{"resourcePlans":{}}\n');

    // An untouched attribute edited by hand: the pins hold.
    await admin.nodes.update("login01", { ip: "10.0.0.111" });
    expect((await pins(["check", pinsFile, "--plan", plan])).code).toBe(0);

    // The pinned attribute edited by hand: refused, naming node and attribute.
    await admin.nodes.update("login01", { bmc: "10.1.200.99" });
    const moved = await pins(["check", pinsFile, "--plan", plan]);
    expect(moved.code).toBe(4);
    expect(moved.stderr).toContain("login01 bmc: reviewed 10.1.200.1, now 10.1.200.99");
    expect(moved.stderr).not.toContain("login01 ip");

    // The node deleted by hand: refused, saying so.
    await admin.nodes.delete("login01");
    const gone = await pins(["check", pinsFile, "--plan", plan]);
    expect(gone.code).toBe(4);
    expect(gone.stderr).toContain(
      "login01 bmc: reviewed 10.1.200.1, now the node is not defined on the management node",
    );
    // Only the hand edits above wrote: save and check read.
    expect(writes() - writesBefore).toBe(3);
  });
});
