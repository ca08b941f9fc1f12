/**
 * The lab as a Pulumi YAML program (examples/lab-yaml) through the real engine, served by the
 * native provider pulumi-resource-xcat from the packed package: up, a preview with no changes, a
 * hand edit found by refresh and restored by up, destroy. Its requests stay within 10% of the
 * TypeScript lab's at the same size (the same core does the batching), and the BMC password,
 * given in plain config and made secret with fn::secret, never appears in plain text.
 *
 * The TypeScript lab it is compared with runs its `up` while the YAML lab's tests run, against an
 * emulator of its own that counts its requests, so the comparison costs little more than the YAML
 * lab alone.
 */
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { XcatClient } from "../../src/client";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { labProgram } from "./support/lab-program";
import { PulumiWorkspace } from "./support/pulumi-workspace";

const BMC_PASSWORD = "yaml-lab-bmc-4711";
let emulator: RunningEmulator;
let tsEmulator: RunningEmulator;
let admin: XcatClient;
let workspace: PulumiWorkspace;
let tsWorkspace: PulumiWorkspace;
let upRequests = 0;
/** The TypeScript lab's up, started in beforeAll: the requests it sent, or its failure. */
let tsUp: Promise<number | Error>;

/** The packed package's bins first on PATH: the engine finds pulumi-resource-xcat there. */
function withPackedPlugin(sandbox: string): Record<string, string> {
  return { PATH: `${join(sandbox, "node_modules", ".bin")}:${process.env.PATH ?? ""}` };
}

/** JSON output without its `config` sections (the config as set); other text as it is. */
function withoutConfigEcho(stdout: string): string {
  try {
    const parsed = JSON.parse(stdout) as unknown;
    const entries = Array.isArray(parsed) ? parsed : [parsed];
    for (const entry of entries)
      if (entry && typeof entry === "object") delete (entry as { config?: unknown }).config;
    return JSON.stringify(parsed);
  } catch {
    return stdout;
  }
}

/** One `pulumi config set-all`: the connection, `pollSeconds` 1 and `plain` in plain text. */
async function connect(ws: PulumiWorkspace, url: string, plain: Record<string, string>): Promise<void> {
  const settings = { "xcat:url": url, "xcat:username": "root", pollSeconds: "1", ...plain };
  await ws.run([
    "config",
    "set-all",
    ...["--secret", `xcat:password=${EMULATOR_DEFAULT_PASSWORD}`],
    ...Object.entries(settings).flatMap(([key, value]) => ["--plaintext", `${key}=${value}`]),
  ]);
}

beforeAll(async () => {
  const sandbox = inject("e2eSandbox");
  emulator = await startEmulator({ bootSeconds: 1 });
  tsEmulator = await startEmulator({ bootSeconds: 1 });
  admin = new XcatClient({ url: emulator.url, username: "root", password: EMULATOR_DEFAULT_PASSWORD });
  const yaml = async () => {
    workspace = await PulumiWorkspace.create({
      programDir: resolve(import.meta.dirname, "../../examples/lab-yaml"),
      sandboxDir: sandbox,
      env: withPackedPlugin(sandbox),
    });
    // In plain text on purpose: the program's fn::secret must keep it secret.
    await connect(workspace, emulator.url, { bmcPassword: BMC_PASSWORD });
  };
  const typescript = async () => {
    tsWorkspace = await PulumiWorkspace.create({
      programDir: await labProgram(sandbox),
      sandboxDir: sandbox,
    });
    // The TypeScript lab at the YAML lab's size.
    await connect(tsWorkspace, tsEmulator.url, { racks: "1", nodesPerRack: "4", vms: "2", loginNodes: "1" });
    await tsWorkspace.setConfig("bmcPassword", BMC_PASSWORD, { secret: true });
  };
  await Promise.all([yaml(), typescript()]);
  tsUp = tsWorkspace.up().then(
    () => tsEmulator.stats().total,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
});

afterAll(async () => {
  await tsUp;
  await workspace?.dispose();
  await tsWorkspace?.dispose();
  await admin?.close();
  await emulator?.close();
  await tsEmulator?.close();
});

describe("examples/lab-yaml on the native provider", () => {
  it("up creates the lab", async () => {
    const before = emulator.stats().total;
    const changes = await workspace.up();
    upRequests = emulator.stats().total - before;
    // The stack and 24 resources (the default provider is not counted).
    expect(changes).toEqual({ create: 25 });
    const node = await admin.nodes.get("r01n03");
    expect(node).toMatchObject({ groups: "compute,rack01,all", ip: "10.0.1.3", bmcpassword: BMC_PASSWORD });
    const outputs = await workspace.outputs();
    expect(Object.keys(outputs.computeStates as object)).toEqual(["r01n01", "r01n02", "r01n03", "r01n04"]);
    expect(outputs.computePower).toEqual({ r01n01: "on", r01n02: "on", r01n03: "on", r01n04: "on" });
  });

  it("a preview afterwards has no changes", async () => {
    const preview = await workspace.preview();
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
  });

  it("refresh finds a hand edit and up restores it", async () => {
    await admin.nodes.update("r01n02", { room: "moved-by-hand" });
    const refreshed = await workspace.refresh();
    expect(refreshed.update).toBe(1);
    expect(await workspace.up()).toMatchObject({ update: 1 });
    expect((await admin.nodes.get("r01n02")).room).toBe("lab");
  });

  it("keeps the fn::secret password out of the state and every log", async () => {
    const { text } = await workspace.exportState();
    expect(text).not.toContain(BMC_PASSWORD);
    expect(text).toContain("secretAttributes");
    // The JSON of `preview --json` and `stack history` echoes the stack's config as it was set:
    // here in plain text on purpose, as the program's fn::secret is what must keep the password
    // out of the state and out of everything the runs print besides that echo.
    expect(workspace.transcript.length).toBeGreaterThan(5);
    for (const run of workspace.transcript) {
      expect(withoutConfigEcho(`${run.stdout}`) + run.stderr).not.toContain(BMC_PASSWORD);
    }
  });

  it("costs within 10% of the TypeScript lab's requests at the same size", async () => {
    const tsUpRequests = await tsUp;
    if (tsUpRequests instanceof Error) throw tsUpRequests;
    process.stderr.write(`lab up: YAML ${upRequests} requests, TypeScript ${tsUpRequests}\n`);
    expect(tsUpRequests).toBeGreaterThan(0);
    expect(Math.abs(upRequests - tsUpRequests)).toBeLessThanOrEqual(Math.ceil(tsUpRequests * 0.1));
  });

  it("destroy removes everything", async () => {
    expect(await workspace.destroy()).toEqual({ delete: 25 });
    expect(await admin.nodes.nodels("all").catch(() => [])).toEqual([]);
  });
});
