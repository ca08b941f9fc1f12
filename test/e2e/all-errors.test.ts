/**
 * Issue #36 item 7 on the real engine, TypeScript (plain JavaScript) side: a program with four
 * invalid resources (a misspelt node attribute, an ip of 10.0.0.300 with `mgt: 5`, a mask of
 * 255.0.255.0, a misspelt group attribute) and one valid node. The engine alone would stop the
 * preview at the first invalid resource (docs/support-matrix.md N11); the classes check known
 * inputs in the program (src/provider/classes/program-check.ts), so one preview names all four,
 * with resource and field, and fails. `up` without a preview writes nothing of the invalid ones
 * either: they are never registered.
 *
 * The same four in a YAML program (native provider): the engine stops the preview at the first
 * resource the provider refuses; the provider reads the program beside it and names the other
 * three in the same failure (src/native/yaml-program-check.ts), so one preview names all four too.
 *
 * Mistakes on three explicit providers (two xCAT, one Confluent) and on the default provider (put on
 * Confluent by the stack config) in one YAML program: the first refusal comes from the xCAT
 * provider's process, which names the others, each checked for its own provider's backend.
 *
 * Engine runs: TypeScript one preview and one up; YAML one preview and one up (fresh stacks);
 * explicit providers one preview.
 */
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type RunningConfluentEmulator, startConfluentEmulator } from "../../src/confluent-emulator";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { outputOf, REST_PASSWORD } from "./reliability/support";
import { PulumiWorkspace } from "./support/pulumi-workspace";

/** Requests that could change xCAT, per route (logins aside). */
function writes(emulator: RunningEmulator): Record<string, number> {
  return Object.fromEntries(
    Object.entries(emulator.stats().byRoute).filter(
      ([route]) => /^(POST|PUT|DELETE|PATCH) /.test(route) && route !== "POST /tokens",
    ),
  );
}

/** A stack of the program on the emulator, connected by stack config. */
async function stackOn(
  emulator: RunningEmulator,
  program: string,
  env?: Readonly<Record<string, string>>,
): Promise<PulumiWorkspace> {
  const workspace = await PulumiWorkspace.create({
    programDir: resolve(import.meta.dirname, program),
    sandboxDir: inject("e2eSandbox"),
    ...(env ? { env } : {}),
  });
  await workspace.run([
    "config",
    "set-all",
    ...["--plaintext", `xcat:url=${emulator.url}`, "--plaintext", "xcat:username=root"],
    ...["--secret", `xcat:password=${REST_PASSWORD}`],
  ]);
  return workspace;
}

/** Each mistake is named on one line of the output: its resource and its field's reason. */
function expectNamed(output: string, mistakes: ReadonlyArray<{ resource: string; reason: RegExp }>) {
  for (const { resource, reason } of mistakes) {
    const line = output.split("\n").find((text) => text.includes(resource) && reason.test(text));
    expect(line, `${resource} ${reason}\n${output}`).toBeDefined();
  }
}

/** Each mistake: the resource as the engine names it, and the field's reason. */
// biome-ignore format: one mistake per line reads as a table
const MISTAKES = [
  { resource: "pulumi-nodejs:dynamic/xcat:Node resource 'cn01'", reason: /property attributes has a problem: attributes: 'bcm' is not a node attribute.*did you mean 'bmc'/ },
  { resource: "pulumi-nodejs:dynamic/xcat:Node resource 'cn02'", reason: /property attributes has a problem: attributes: ip '10\.0\.0\.300' is not an IP address/ },
  { resource: "pulumi-nodejs:dynamic/xcat:Node resource 'cn02'", reason: /property attributes has a problem: attributes: the value of 'mgt' must be a string, got number 5/ },
  { resource: "pulumi-nodejs:dynamic/xcat:Network resource 'mgmt'", reason: /property mask has a problem: .*255\.0\.255\.0/ },
  { resource: "pulumi-nodejs:dynamic/xcat:Group resource 'compute'", reason: /property attributes has a problem: attributes: 'membrs' is not a group attribute.*did you mean 'members'/ },
];

describe("every invalid resource of a TypeScript program named in one preview", () => {
  let emulator: RunningEmulator;
  let workspace: PulumiWorkspace;

  beforeAll(async () => {
    emulator = await startEmulator({ password: REST_PASSWORD });
    workspace = await stackOn(emulator, "programs/all-errors");
  });

  afterAll(async () => {
    await workspace?.dispose();
    await emulator?.close();
  });

  it("one preview names all four invalid resources with their fields, and fails", async () => {
    const preview = await workspace.run(["preview"], { allowFailure: true });
    const output = outputOf(preview);
    expect(preview.exitCode, output).not.toBe(0);
    expectNamed(output, MISTAKES);
    expect(output).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect(writes(emulator)).toEqual({});
  });

  it("up without a preview writes none of them; only the valid node is created", async () => {
    const up = await workspace.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
    const output = outputOf(up);
    expect(up.exitCode, output).not.toBe(0);
    for (const { resource } of MISTAKES) expect(output).toContain(resource);
    expect(emulator.state.listObjects("node")).toEqual(["cn03"]);
    expect(emulator.state.listObjects("network")).toEqual([]);
    expect(emulator.state.listObjects("group")).not.toContain("compute");
    const { resources } = await workspace.exportState();
    const names = resources.map((resource) => resource.urn.split("::").at(-1));
    for (const invalid of ["cn01", "cn02", "mgmt", "compute"]) expect(names).not.toContain(invalid);
  });
});

/** The same mistakes in the YAML program, as the engine and the provider name them there. */
// biome-ignore format: one mistake per line reads as a table
const YAML_MISTAKES = [
  { resource: "xcat:index:Node resource 'cn01'", reason: /attributes: 'bcm' is not a node attribute.*did you mean 'bmc'/ },
  { resource: "xcat:index:Node resource 'cn02'", reason: /attributes: ip '10\.0\.0\.300' is not an IP address/ },
  { resource: "xcat:index:Network resource 'mgmt'", reason: /mask .*255\.0\.255\.0/ },
  { resource: "xcat:index:Group resource 'compute'", reason: /attributes: 'membrs' is not a group attribute.*did you mean 'members'/ },
];

describe("every invalid resource of a YAML program named in one preview", () => {
  let emulator: RunningEmulator;
  let workspace: PulumiWorkspace;

  beforeAll(async () => {
    emulator = await startEmulator({ password: REST_PASSWORD });
    const sandbox = inject("e2eSandbox");
    // pulumi-resource-xcat from the installed package, as `npm install` puts it on a project's PATH.
    workspace = await stackOn(emulator, "programs/all-errors-yaml", {
      PATH: `${join(sandbox, "node_modules", ".bin")}:${process.env.PATH ?? ""}`,
    });
  });

  afterAll(async () => {
    await workspace?.dispose();
    await emulator?.close();
  });

  it("one preview names all four invalid resources with their fields, and fails", async () => {
    const preview = await workspace.run(["preview"], { allowFailure: true });
    const output = outputOf(preview);
    expect(preview.exitCode, output).not.toBe(0);
    expectNamed(output, YAML_MISTAKES);
    expect(writes(emulator)).toEqual({});
  });

  it("up without a preview writes none of them", async () => {
    const up = await workspace.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
    const output = outputOf(up);
    expect(up.exitCode, output).not.toBe(0);
    for (const { resource } of YAML_MISTAKES) expect(output).toContain(resource);
    for (const node of ["cn01", "cn02"]) expect(emulator.state.listObjects("node")).not.toContain(node);
    expect(emulator.state.listObjects("network")).toEqual([]);
    expect(emulator.state.listObjects("group")).not.toContain("compute");
  });
});

/** The mistakes of the program on explicit providers, each for its provider's backend. */
// biome-ignore format: one mistake per line reads as a table
const PROVIDER_MISTAKES = [
  { resource: "xcat:index:Node resource 'a01'", reason: /ip '10\.1\.0\.300' is not an IP address/ },
  { resource: "xcat:index:Node resource 'a02'", reason: /'bcm' is not a node attribute.*did you mean 'bmc'/ },
  { resource: "xcat:index:Network resource 'netB'", reason: /mask .*255\.0\.255\.0/ },
  { resource: "xcat:index:Node resource 'c01'", reason: /attribute 'postscripts' has no counterpart on Confluent.*the provider 'cf'/ },
  { resource: "xcat:index:Node resource 'd01'", reason: /attribute 'postbootscripts' has no counterpart on Confluent.*pulumi config set xcat:confluentOmit postbootscripts/ },
];

describe("every invalid resource of a YAML program on explicit xCAT and Confluent providers named in one preview", () => {
  let mnA: RunningEmulator;
  let mnB: RunningEmulator;
  let cf: RunningConfluentEmulator;
  let workspace: PulumiWorkspace;

  beforeAll(async () => {
    [mnA, mnB, cf] = await Promise.all([
      startEmulator({ password: REST_PASSWORD }),
      startEmulator({ password: REST_PASSWORD }),
      startConfluentEmulator({ user: "admin-c", password: REST_PASSWORD }),
    ]);
    const sandbox = inject("e2eSandbox");
    workspace = await PulumiWorkspace.create({
      programDir: resolve(import.meta.dirname, "programs/all-errors-providers"),
      sandboxDir: sandbox,
      env: { PATH: `${join(sandbox, "node_modules", ".bin")}:${process.env.PATH ?? ""}` },
    });
    // The default provider is on Confluent: its resources are checked for Confluent.
    await workspace.setConfigs(
      {
        urlA: mnA.url,
        urlB: mnB.url,
        urlC: cf.url,
        "xcat:backend": "confluent",
        "xcat:url": cf.url,
        "xcat:username": "admin-c",
      },
      { passwordA: REST_PASSWORD, passwordC: REST_PASSWORD, "xcat:password": REST_PASSWORD },
    );
  });

  afterAll(async () => {
    await workspace?.dispose();
    await mnA?.close();
    await mnB?.close();
    await cf?.close();
  });

  it("names the mistakes on mnA, mnB, Confluent and the default provider, each for its backend, and writes nothing", async () => {
    const preview = await workspace.run(["preview"], { allowFailure: true });
    const output = outputOf(preview);
    expect(preview.exitCode, output).not.toBe(0);
    expectNamed(output, PROVIDER_MISTAKES);
    // Valid on Confluent, and the engine never checked them: not named.
    expect(output).not.toMatch(/resource 'd02'/);
    expect(writes(mnA)).toEqual({});
    expect(
      cf.state
        .requests()
        .filter((request) => request.method !== "GET" && !request.path.startsWith("/sessions")),
    ).toEqual([]);
    expect(cf.state.nodeNames()).toEqual([]);
  });
});
