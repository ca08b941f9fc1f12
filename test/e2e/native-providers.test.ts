/**
 * Explicit providers on the native provider (issue #30 item 1), through the real engine with a
 * YAML program (test/e2e/programs/native-two-mns): one stack, two management nodes, each an
 * explicit `pulumi:providers:xcat` with its own URL and account. Each node goes to its own
 * management node and no other; a second preview has no changes; destroy removes each from its
 * own; neither password is in the state or in any output in plain text.
 */
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { PulumiWorkspace } from "./support/pulumi-workspace";

const PASSWORD_A = "mn-a-Pw-4417";
const PASSWORD_B = "mn-b-Pw-9023";

describe("two management nodes in one YAML stack, an explicit provider each", () => {
  let mnA: RunningEmulator;
  let mnB: RunningEmulator;
  let workspace: PulumiWorkspace;

  beforeAll(async () => {
    mnA = await startEmulator({ password: PASSWORD_A });
    mnB = await startEmulator({ user: "admin-b", password: PASSWORD_B });
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
      ...["--secret", `passwordA=${PASSWORD_A}`, "--secret", `passwordB=${PASSWORD_B}`],
    ]);
  });

  afterAll(async () => {
    await workspace?.dispose();
    await mnA?.close();
    await mnB?.close();
  });

  it("up writes each node to its own management node and no other", async () => {
    // The stack, two providers, two nodes.
    expect(await workspace.up()).toEqual({ create: 5 });
    expect(mnA.state.listObjects("node")).toEqual(["a01"]);
    expect(mnB.state.listObjects("node")).toEqual(["b01"]);
    expect(mnB.state.getObject("node", "b01")).toMatchObject({ ip: "10.2.0.1", mgt: "ipmi" });
  });

  it("a second preview has no changes", async () => {
    expect((await workspace.preview()).changeSummary).toEqual({ same: 5 });
  });

  it("neither password is in the state or in any output in plain text", async () => {
    const { text, resources } = await workspace.exportState();
    expect(text).not.toContain(PASSWORD_A);
    expect(text).not.toContain(PASSWORD_B);
    // The providers hold them as secrets.
    const providers = resources.filter((resource) => resource.type === "pulumi:providers:xcat");
    expect(providers).toHaveLength(2);
    for (const provider of providers) expect(JSON.stringify(provider.inputs?.password)).toMatch(/ciphertext/);
    // (The harness reads counts with --show-secrets, which prints the stack config the test set.)
    const shown = workspace.transcript.filter((command) => !command.args.includes("--show-secrets"));
    for (const command of shown) {
      expect(command.stdout + command.stderr).not.toContain(PASSWORD_A);
      expect(command.stdout + command.stderr).not.toContain(PASSWORD_B);
    }
  });

  it("destroy removes each node from its own management node", async () => {
    expect(await workspace.destroy()).toEqual({ delete: 5 });
    expect(mnA.state.listObjects("node")).toEqual([]);
    expect(mnB.state.listObjects("node")).toEqual([]);
  });
});
