/**
 * Explicit providers on the native provider (issue #30 item 1), through the real engine with a
 * YAML program (test/e2e/programs/native-two-mns): one stack, two xCAT management nodes and a
 * Confluent server, each an explicit `pulumi:providers:xcat` with its own URL and account (and,
 * for Confluent, `backend: confluent`). Each node goes to its own server and no other; a second
 * preview has no changes; destroy removes each from its own; no password is in the state or in
 * any output in plain text.
 */
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type RunningConfluentEmulator, startConfluentEmulator } from "../../src/confluent-emulator";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { PulumiWorkspace } from "./support/pulumi-workspace";

const PASSWORD_A = "mn-a-Pw-4417";
const PASSWORD_B = "mn-b-Pw-9023";
const PASSWORD_C = "cf-c-Pw-5581";
/** The BMC user of a01 and c01, from secret config: no password by its name, a secret all the same. */
const BMC_USER = "bmc-user-7719";
const PASSWORDS = [PASSWORD_A, PASSWORD_B, PASSWORD_C, BMC_USER];

describe("two xCAT management nodes and a Confluent server in one YAML stack, an explicit provider each", () => {
  let mnA: RunningEmulator;
  let mnB: RunningEmulator;
  let mnC: RunningConfluentEmulator;
  let workspace: PulumiWorkspace;

  beforeAll(async () => {
    mnA = await startEmulator({ password: PASSWORD_A });
    mnB = await startEmulator({ user: "admin-b", password: PASSWORD_B });
    mnC = await startConfluentEmulator({ user: "admin-c", password: PASSWORD_C });
    const sandbox = inject("e2eSandbox");
    workspace = await PulumiWorkspace.create({
      programDir: resolve(import.meta.dirname, "programs/native-two-mns"),
      sandboxDir: sandbox,
      // pulumi-resource-xcat from the installed package, as `npm install` puts it on a project's PATH.
      env: { PATH: `${join(sandbox, "node_modules", ".bin")}:${process.env.PATH ?? ""}` },
    });
    await workspace.run([
      "config",
      "set-all",
      ...["--plaintext", `urlA=${mnA.url}`, "--plaintext", `urlB=${mnB.url}`],
      ...["--plaintext", `urlC=${mnC.url}`],
      ...["--secret", `passwordA=${PASSWORD_A}`, "--secret", `passwordB=${PASSWORD_B}`],
      ...["--secret", `passwordC=${PASSWORD_C}`, "--secret", `bmcUser=${BMC_USER}`],
    ]);
  });

  afterAll(async () => {
    await workspace?.dispose();
    await mnA?.close();
    await mnB?.close();
    await mnC?.close();
  });

  it("up writes each node to its own server and no other", async () => {
    // The stack, three providers, three nodes.
    expect(await workspace.up()).toEqual({ create: 7 });
    expect(mnA.state.listObjects("node")).toEqual(["a01"]);
    expect(mnB.state.listObjects("node")).toEqual(["b01"]);
    expect(mnC.state.nodeNames()).toEqual(["c01"]);
    expect(mnB.state.getObject("node", "b01")).toMatchObject({ ip: "10.2.0.1", mgt: "ipmi" });
    expect(mnA.state.getObject("node", "a01")).toMatchObject({ bmcusername: BMC_USER });
  });

  it("a second preview has no changes", async () => {
    expect((await workspace.preview()).changeSummary).toEqual({ same: 7 });
  });

  it("no password, nor a value given as a secret, is in the state or in any output in plain text", async () => {
    const { text, resources } = await workspace.exportState();
    for (const password of PASSWORDS) expect(text).not.toContain(password);
    // The providers hold them as secrets.
    const providers = resources.filter((resource) => resource.type === "pulumi:providers:xcat");
    expect(providers).toHaveLength(3);
    for (const provider of providers) expect(JSON.stringify(provider.inputs?.password)).toMatch(/ciphertext/);
    // (The harness reads counts with --show-secrets, which prints the stack config the test set.)
    const shown = workspace.transcript.filter((command) => !command.args.includes("--show-secrets"));
    for (const command of shown)
      for (const password of PASSWORDS) expect(command.stdout + command.stderr).not.toContain(password);
  });

  it("destroy removes each node from its own server", async () => {
    expect(await workspace.destroy()).toEqual({ delete: 7 });
    expect(mnA.state.listObjects("node")).toEqual([]);
    expect(mnB.state.listObjects("node")).toEqual([]);
    expect(mnC.state.nodeNames()).toEqual([]);
  });
});
