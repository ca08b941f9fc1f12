/**
 * Moving resources between servers is never silent (issue #36 item 2), through the real engine.
 * The issue: YAML nodes given `provider: ${confluent}` showed no change in preview, `up` reported
 * success with nothing moved and the state pointing at Confluent. The native provider now answers
 * DiffConfig (src/native/diff-config.ts), so the engine replaces each such resource: created on
 * the new server, deleted from the old, both in the preview; `protect` stops it.
 * - 16 YAML nodes of the stack's xCAT (the default provider) given an explicit Confluent provider
 *   (and, first, an explicit provider naming the same xCAT, which moves nothing);
 * - 4 YAML nodes moved between two xCAT management nodes (two explicit providers), one of them
 *   protected; then back again by changing the url of the provider they name;
 * - 4 TypeScript (dynamic) nodes whose `connection` input changes from the stack's xCAT to
 *   another management node and on to Confluent.
 * Each step counts the objects on every server.
 */
import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type RunningConfluentEmulator, startConfluentEmulator } from "../../src/confluent-emulator";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { type PreviewStep, PulumiWorkspace } from "./support/pulumi-workspace";

const PASSWORD_B = "mn-b-Pw-3671";
const PASSWORD_C = "cf-c-Pw-8852";
const NODE_TYPE = "xcat:index:Node";

/** A YAML node, its BMC on loopback, with `options` as given. */
function yamlNode(name: string, index: number, options: Record<string, string | boolean>): string {
  const lines = [
    `  ${name}:`,
    `    type: ${NODE_TYPE}`,
    "    properties:",
    `      name: ${name}`,
    "      groups: [all]",
    "      attributes:",
    `        ip: 10.36.0.${index}`,
    "        mgt: ipmi",
    `        bmc: 127.0.10.${100 + index}`,
  ];
  const entries = Object.entries(options);
  if (entries.length > 0)
    lines.push("    options:", ...entries.map(([key, value]) => `      ${key}: ${value}`));
  return lines.join("\n");
}

/** A YAML program of the project provider-move: its config keys, explicit providers and nodes. */
function yamlProgram(config: readonly string[], body: readonly string[]): string {
  return [
    "name: provider-move",
    "runtime: yaml",
    "config:",
    ...config.flatMap((key) => [`  ${key}:`, "    type: string"]),
    "resources:",
    ...body,
    "",
  ].join("\n");
}

/** A YAML expression naming a config key or a resource: `${name}`. */
const ref = (name: string) => `\${${name}}`;

const names = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(2, "0")}`);

/** The nodes of a preview's steps by operation: `{ replace: [...], … }`. */
function nodeOps(steps: readonly PreviewStep[]): Record<string, string[]> {
  const ops: Record<string, string[]> = {};
  for (const step of steps) {
    if (!step.urn.includes(`::${NODE_TYPE}::`)) continue;
    const name = step.urn.split("::").at(-1) ?? "";
    ops[step.op] = [...(ops[step.op] ?? []), name];
  }
  for (const list of Object.values(ops)) list.sort();
  return ops;
}

/**
 * The providers a preview's replace steps go from and to, by node. `preview --json` shows a
 * replacement as one step, op `replace`, whose old state is deleted through the old provider and
 * whose new one is created through the new (the run's events are create-replacement, then
 * delete-replaced).
 */
function replacedBetween(steps: readonly PreviewStep[]): Record<string, { from: string; to: string }> {
  const moves: Record<string, { from: string; to: string }> = {};
  for (const step of steps) {
    if (step.op !== "replace") continue;
    const states = step as PreviewStep & {
      oldState?: { provider?: string };
      newState?: { provider?: string };
    };
    // A provider reference is `<provider's URN>::<id>`; the URN ends with the provider's name.
    const nameOf = (reference = "") => reference.split("::").at(-2) ?? "";
    moves[step.urn.split("::").at(-1) ?? ""] = {
      from: nameOf(states.oldState?.provider),
      to: nameOf(states.newState?.provider),
    };
  }
  return moves;
}

/** No password in the state or in any output (but the harness's own --show-secrets reads). */
async function expectNoPlainPasswords(workspace: PulumiWorkspace, passwords: readonly string[]) {
  const { text } = await workspace.exportState();
  for (const password of passwords) expect(text).not.toContain(password);
  const shown = workspace.transcript.filter((command) => !command.args.includes("--show-secrets"));
  for (const command of shown)
    for (const password of passwords) expect(command.stdout + command.stderr).not.toContain(password);
}

function nativeWorkspace(env: Record<string, string> = {}) {
  const sandbox = inject("e2eSandbox");
  return PulumiWorkspace.create({
    // Each test writes its program into the copy; this folder only names the project.
    programDir: resolve(import.meta.dirname, "programs/provider-move"),
    sandboxDir: sandbox,
    env: { PATH: `${join(sandbox, "node_modules", ".bin")}:${process.env.PATH ?? ""}`, ...env },
  });
}

describe("16 YAML nodes of the stack's xCAT given an explicit Confluent provider", () => {
  const NODES = names("mv", 16);
  let xcatMn: RunningEmulator;
  let confluent: RunningConfluentEmulator;
  let workspace: PulumiWorkspace;

  /** The nodes on the default provider (the stack's xCAT), on `sameXcat` or on `confluent`. */
  const program = (on: "default" | "sameXcat" | "confluent") =>
    yamlProgram(
      ["urlA", "passwordA", "urlC", "passwordC"],
      [
        // The stack's xCAT again, as an explicit provider.
        "  sameXcat:",
        "    type: pulumi:providers:xcat",
        "    properties:",
        `      url: ${ref("urlA")}`,
        "      username: root",
        `      password: ${ref("passwordA")}`,
        "  confluent:",
        "    type: pulumi:providers:xcat",
        "    properties:",
        "      backend: confluent",
        `      url: ${ref("urlC")}`,
        "      username: admin-c",
        `      password: ${ref("passwordC")}`,
        ...NODES.map((node, i) => yamlNode(node, i + 1, on === "default" ? {} : { provider: ref(on) })),
      ],
    );

  beforeAll(async () => {
    xcatMn = await startEmulator();
    confluent = await startConfluentEmulator({ user: "admin-c", password: PASSWORD_C });
    workspace = await nativeWorkspace();
    await writeFile(join(workspace.programDir, "Pulumi.yaml"), program("default"));
    await workspace.run([
      "config",
      "set-all",
      ...["--plaintext", `xcat:url=${xcatMn.url}`, "--plaintext", "xcat:username=root"],
      ...["--secret", `xcat:password=${EMULATOR_DEFAULT_PASSWORD}`],
      ...["--plaintext", `urlC=${confluent.url}`, "--secret", `passwordC=${PASSWORD_C}`],
      ...["--plaintext", `urlA=${xcatMn.url}`, "--secret", `passwordA=${EMULATOR_DEFAULT_PASSWORD}`],
    ]);
  });

  afterAll(async () => {
    await workspace?.dispose();
    await xcatMn?.close();
    await confluent?.close();
  });

  it("up puts the 16 nodes on xCAT", async () => {
    expect(await workspace.up()).toMatchObject({ create: 19 });
    expect(xcatMn.state.listObjects("node")).toEqual(NODES);
    expect(confluent.state.nodeNames()).toEqual([]);
  });

  it("given an explicit provider naming the same xCAT, preview replaces nothing: nothing moves", async () => {
    await writeFile(join(workspace.programDir, "Pulumi.yaml"), program("sameXcat"));
    expect((await workspace.preview()).changeSummary).toEqual({ same: 19 });
  });

  it("with provider confluent, preview lists each node as replaced: created on Confluent, deleted from xCAT (32 operations)", async () => {
    await writeFile(join(workspace.programDir, "Pulumi.yaml"), program("confluent"));
    const preview = await workspace.preview();
    expect(nodeOps(preview.steps)).toEqual({ replace: NODES });
    expect(preview.changeSummary).toMatchObject({ replace: 16 });
    for (const step of preview.steps.filter((each) => each.op === "replace"))
      expect(step.replaceReasons).toEqual(["provider"]);
    const moves = replacedBetween(preview.steps);
    expect(Object.keys(moves).sort()).toEqual(NODES);
    // The default provider is named `default`, with its version when the program gives one.
    for (const node of NODES)
      expect(moves[node]).toEqual({ from: expect.stringMatching(/^default/), to: "confluent" });
    // A preview changes nothing.
    expect(xcatMn.state.listObjects("node")).toHaveLength(16);
    expect(confluent.state.nodeNames()).toEqual([]);
  });

  it("up moves every node: on Confluent, gone from xCAT", async () => {
    expect(await workspace.up()).toMatchObject({ replace: 16 });
    expect(confluent.state.nodeNames()).toEqual(NODES);
    expect(xcatMn.state.listObjects("node")).toEqual([]);
  });

  it("the next preview has no changes, no password is in the state or the output, and destroy removes them from Confluent", async () => {
    expect((await workspace.preview()).changeSummary).toEqual({ same: 19 });
    await expectNoPlainPasswords(workspace, [EMULATOR_DEFAULT_PASSWORD, PASSWORD_C]);
    expect(await workspace.destroy()).toMatchObject({ delete: 19 });
    expect(confluent.state.nodeNames()).toEqual([]);
    expect(xcatMn.state.listObjects("node")).toEqual([]);
  });
});

describe("YAML nodes moved between two xCAT management nodes, one of them protected", () => {
  const NODES = names("pm", 4);
  const PROTECTED = "pm02";
  let mnA: RunningEmulator;
  let mnB: RunningEmulator;
  let workspace: PulumiWorkspace;

  /** Nodes on provider `on`; the protected one protected unless `unprotect`; mnB's url as given. */
  const program = (on: "mnA" | "mnB", options: { unprotect?: boolean; mnBUrl?: string } = {}) =>
    yamlProgram(
      ["urlA", "passwordA", "urlB", "passwordB"],
      [
        "  mnA:",
        "    type: pulumi:providers:xcat",
        "    properties:",
        `      url: ${ref("urlA")}`,
        "      username: root",
        `      password: ${ref("passwordA")}`,
        "  mnB:",
        "    type: pulumi:providers:xcat",
        "    properties:",
        `      url: ${options.mnBUrl ?? ref("urlB")}`,
        "      username: admin-b",
        `      password: ${ref("passwordB")}`,
        ...NODES.map((node, i) =>
          yamlNode(node, 40 + i, {
            provider: ref(on),
            ...(node === PROTECTED && !options.unprotect ? { protect: true } : {}),
          }),
        ),
      ],
    );

  beforeAll(async () => {
    mnA = await startEmulator();
    mnB = await startEmulator({ user: "admin-b", password: PASSWORD_B });
    workspace = await nativeWorkspace();
    await writeFile(join(workspace.programDir, "Pulumi.yaml"), program("mnA"));
    await workspace.run([
      "config",
      "set-all",
      ...["--plaintext", `urlA=${mnA.url}`, "--secret", `passwordA=${EMULATOR_DEFAULT_PASSWORD}`],
      ...["--plaintext", `urlB=${mnB.url}`, "--secret", `passwordB=${PASSWORD_B}`],
    ]);
  });

  afterAll(async () => {
    await workspace?.dispose();
    await mnA?.close();
    await mnB?.close();
  });

  it("up puts the nodes on A", async () => {
    expect(await workspace.up()).toMatchObject({ create: 7 });
    expect(mnA.state.listObjects("node")).toEqual(NODES);
  });

  it("given B's provider, preview fails naming the protected node, and up deletes nothing from A", async () => {
    await writeFile(join(workspace.programDir, "Pulumi.yaml"), program("mnB"));
    const preview = await workspace.run(["preview"], { allowFailure: true });
    expect(preview.exitCode).not.toBe(0);
    expect(preview.stdout + preview.stderr).toMatch(
      new RegExp(
        `unable to replace resource "[^"]*::${PROTECTED}"\\s+as it is currently marked for protection`,
      ),
    );
    const up = await workspace.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
    expect(up.exitCode).not.toBe(0);
    expect(up.stdout + up.stderr).toMatch(/marked for protection/);
    // The protected node is on A and not on B; no node was deleted from A (deletes of replaced
    // objects come after every create, and the run stopped before them).
    expect(mnA.state.listObjects("node")).toEqual(NODES);
    expect(mnB.state.listObjects("node")).not.toContain(PROTECTED);
  });

  it("unprotected, up moves every node to B and deletes them from A", async () => {
    await writeFile(join(workspace.programDir, "Pulumi.yaml"), program("mnB", { unprotect: true }));
    await workspace.up();
    expect(mnB.state.listObjects("node")).toEqual(NODES);
    expect(mnA.state.listObjects("node")).toEqual([]);
    expect((await workspace.preview()).changeSummary).toEqual({ same: 7 });
  });

  it("changing the url of the provider they name moves them too (the provider is replaced, and with it its nodes)", async () => {
    // mnB now names A, with A's account: the nodes go back to A.
    const backToA = program("mnB", { unprotect: true, mnBUrl: ref("urlA") })
      .replace("username: admin-b", "username: root")
      .replace(`password: ${ref("passwordB")}`, `password: ${ref("passwordA")}`);
    await writeFile(join(workspace.programDir, "Pulumi.yaml"), backToA);
    // The up's own preview (one engine run for the preview and the move).
    const { preview } = await workspace.upAfterJsonPreview();
    expect(nodeOps(preview.steps)).toEqual({ replace: NODES });
    // The provider itself is replaced (its url changed), and the nodes with it.
    expect(preview.steps.find((step) => step.urn.endsWith("::mnB"))?.op).toBe("replace");
    expect(mnA.state.listObjects("node")).toEqual(NODES);
    expect(mnB.state.listObjects("node")).toEqual([]);
    await workspace.destroy();
    expect(mnA.state.listObjects("node")).toEqual([]);
  });
});

describe("TypeScript nodes whose connection names another server", () => {
  const NODES = names("tc", 4);
  let mnA: RunningEmulator;
  let mnB: RunningEmulator;
  let confluent: RunningConfluentEmulator;
  let workspace: PulumiWorkspace;

  beforeAll(async () => {
    mnA = await startEmulator();
    mnB = await startEmulator({ user: "admin-b", password: PASSWORD_B });
    confluent = await startConfluentEmulator({ user: "admin-c", password: PASSWORD_C });
    workspace = await PulumiWorkspace.create({
      programDir: resolve(import.meta.dirname, "programs/connection-move"),
      sandboxDir: inject("e2eSandbox"),
    });
    await workspace.run([
      "config",
      "set-all",
      ...["--plaintext", `xcat:url=${mnA.url}`, "--plaintext", "xcat:username=root"],
      ...["--secret", `xcat:password=${EMULATOR_DEFAULT_PASSWORD}`, "--plaintext", "target=a"],
      ...["--plaintext", `urlB=${mnB.url}`, "--secret", `passwordB=${PASSWORD_B}`],
      ...["--plaintext", `urlC=${confluent.url}`, "--secret", `passwordC=${PASSWORD_C}`],
    ]);
  });

  afterAll(async () => {
    await workspace?.dispose();
    await mnA?.close();
    await mnB?.close();
    await confluent?.close();
  });

  const dynamicNodeOps = (steps: readonly PreviewStep[]) =>
    nodeOps(
      steps.map((step) => ({ ...step, urn: step.urn.replace("pulumi-nodejs:dynamic/xcat:Node", NODE_TYPE) })),
    );

  it("up puts the nodes on the stack's xCAT", async () => {
    expect(await workspace.up()).toMatchObject({ create: 5 });
    expect(mnA.state.listObjects("node")).toEqual(NODES);
  });

  // N12 (issue #36): the stack's own xcat:url changed under nodes without a connection. The
  // dynamic-provider host has no DiffConfig, so nothing can be a move; preview is
  // refused naming the node and the way to move (src/provider/stack-server.ts), nothing changes.
  it("the stack's own xcat:url changed under them: preview is refused naming the node and how to move, nothing changes on either server", async () => {
    await workspace.run([
      "config",
      "set-all",
      ...["--plaintext", `xcat:url=${mnB.url}`, "--plaintext", "xcat:username=admin-b"],
      ...["--secret", `xcat:password=${PASSWORD_B}`],
    ]);
    const preview = await workspace.run(["preview"], { allowFailure: true });
    expect(preview.exitCode).not.toBe(0);
    const previewText = preview.stdout + preview.stderr;
    expect(previewText).toMatch(
      /xcat:Node "tc0\d": was made on http\S+ \(xcat\), but the stack's xcat:url\/xcat:backend now name http\S+ \(xcat\)/,
    );
    expect(previewText).toContain("give its resources a `connection` naming the new server");
    expect(mnA.state.listObjects("node")).toEqual(NODES);
    expect(mnB.state.listObjects("node")).toEqual([]);
    await workspace.run([
      "config",
      "set-all",
      ...["--plaintext", `xcat:url=${mnA.url}`, "--plaintext", "xcat:username=root"],
      ...["--secret", `xcat:password=${EMULATOR_DEFAULT_PASSWORD}`],
    ]);
  });

  it("to another management node: preview lists each node as replaced on connection, up creates on B and deletes from A", async () => {
    await workspace.setConfig("target", "b");
    // The up's own preview (one engine run for the preview and the move).
    const { preview } = await workspace.upAfterJsonPreview();
    expect(dynamicNodeOps(preview.steps)).toEqual({ replace: NODES });
    for (const step of preview.steps.filter((each) => each.op === "replace"))
      expect(step.replaceReasons).toEqual(["connection"]);
    expect(mnB.state.listObjects("node")).toEqual(NODES);
    expect(mnA.state.listObjects("node")).toEqual([]);
  });

  it("on to Confluent: the same, the next preview has no changes, and no password is in the state or the output", async () => {
    await workspace.setConfig("target", "c");
    expect(await workspace.up()).toMatchObject({ replace: 4 });
    expect(confluent.state.nodeNames()).toEqual(NODES);
    expect(mnB.state.listObjects("node")).toEqual([]);
    expect((await workspace.preview()).changeSummary).toEqual({ same: 5 });
    // The connections (and their passwords) of the old and the new server, in the replaced states.
    await expectNoPlainPasswords(workspace, [EMULATOR_DEFAULT_PASSWORD, PASSWORD_B, PASSWORD_C]);
    await workspace.destroy();
    expect(confluent.state.nodeNames()).toEqual([]);
  });
});
