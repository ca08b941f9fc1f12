/**
 * Issue 8, item 5 on the real engine: mistakes a JavaScript user can make (examples/bad-input,
 * plain JavaScript, so no type checker stands between the user and pulumi-xcat) go through
 * `pulumi preview`. Each must fail with a message naming the resource and the field, never a
 * crash or a stack trace, and xCAT must not be contacted at all. The full table of invalid inputs
 * is test/provider/bad-input.test.ts.
 */
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../src/emulator";
import { PulumiWorkspace } from "../support/pulumi-workspace";
import { outputOf, REST_PASSWORD } from "./support";

/** The value examples/bad-input gives its misspelt `bmcpasword` attribute. */
const MISSPELT_PASSWORD_VALUE = "Xyzzy-9f3c-bmc";

interface ProgramCase {
  /** The program's `case` config (see examples/bad-input/index.js). */
  readonly name: string;
  /** The Pulumi resource the message must name. */
  readonly resource: string;
  readonly type: string;
  /** The field and reason the message must give. */
  readonly message: RegExp;
}

// One mistake per resource type and per kind of check (a name, an unknown attribute, a network's
// arithmetic, a type, a table's keys, a number, an empty value, a secret): each is a separate
// engine run, so the rest of the table (a comma in a name, groups or attributes of the wrong
// type, a non-contiguous mask, an unknown table, a bad IP...) is checked through the provider in
// test/provider/bad-input.test.ts, where the message is built.
// biome-ignore format: one case per line reads as a table
const CASES: readonly ProgramCase[] = [
  { name: "node-name-slash", resource: "rack1/cn01", type: "xcat:Node", message: /name 'rack1\/cn01' must not contain '\/'/ },
  { name: "node-unknown-attribute", resource: "cn02", type: "xcat:Node", message: /attributes: 'mgmt' is not a node attribute.*did you mean 'mgt'/ },
  { name: "network-host-bits", resource: "ib0", type: "xcat:Network", message: /net 10\.3\.0\.1 has host bits set for mask 255\.255\.255\.0/ },
  { name: "policy-priority-number", resource: "ops", type: "xcat:Policy", message: /priority must be a number written as a string.*got number 6/ },
  { name: "tablerow-wrong-keys", resource: "route-y", type: "xcat:TableRow", message: /keys must be exactly the key columns of table 'routes' \(routename\)/ },
  { name: "vm-zero-cpus", resource: "vm01", type: "xcat:VirtualMachine", message: /cpus must be a positive whole number, got number 0/ },
  { name: "site-empty-value", resource: "domain", type: "xcat:GlobalConfAttribute", message: /value must not be empty/ },
  { name: "node-misspelt-password", resource: "cn04", type: "xcat:Node", message: /'bmcpasword' is not a node attribute.*did you mean 'bmcpassword'/ },
];

/** Requests other than token requests (preview's connection check), since the emulator started. */
function requestsBesidesTokens(emulator: RunningEmulator): number {
  const stats = emulator.stats();
  return stats.total - (stats.byRoute["POST /tokens"] ?? 0);
}

describe("bad input in whole JavaScript programs fails pulumi preview clearly", () => {
  let emulator: RunningEmulator;
  let workspace: PulumiWorkspace;
  let snapshot: string;

  beforeAll(async () => {
    emulator = await startEmulator({ password: REST_PASSWORD });
    workspace = await PulumiWorkspace.create({
      programDir: resolve(import.meta.dirname, "../../../examples/bad-input"),
      sandboxDir: inject("e2eSandbox"),
    });
    await workspace.run([
      "config",
      "set-all",
      "--plaintext",
      `xcat:url=${emulator.url}`,
      "--plaintext",
      "xcat:username=root",
      "--secret",
      `xcat:password=${REST_PASSWORD}`,
    ]);
    snapshot = emulator.state.snapshot();
  });

  afterAll(async () => {
    await workspace?.dispose();
    await emulator?.close();
  });

  it("has at least 8 cases", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(8);
  });

  it.each(CASES)("$name", async ({ name, resource, type, message }) => {
    const preview = await workspace.run(["preview", "--config", `case=${name}`], { allowFailure: true });
    const output = outputOf(preview);
    expect(preview.exitCode).not.toBe(0);
    // The engine's line for the failure names the resource (type and name) and carries our reason.
    const line = output.split("\n").find((text) => message.test(text));
    expect(line, output).toBeDefined();
    expect(output).toContain(`pulumi-nodejs:dynamic/${type} resource '${resource}'`);
    // A message, not a crash.
    expect(output).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect(output).not.toMatch(/TypeError|ReferenceError|Unhandled|panic:/);
    // The value of a password-like attribute (node-misspelt-password) is never printed.
    expect(output).not.toContain(MISSPELT_PASSWORD_VALUE);
    expect(emulator.stats().total).toBe(0);
    expect(emulator.state.snapshot()).toBe(snapshot);
  });

  // Issue 16, item 6: two resources claiming one node fail the program, naming both, before the
  // engine registers the second one or sends anything; the name may be an Output or a string.
  // The same for the other resources that own an object: a table row (its keys an Output in the
  // second resource) and a VM node's guest.
  it.each([
    {
      name: "node-claimed-twice",
      claim: "xcat:Node resources 'cn10' and 'cn10-again' both manage the node 'cn10'",
    },
    {
      name: "node-claimed-twice-plain",
      claim: "xcat:Node resources 'cn11' and 'cn11-again' both manage the node 'cn11'",
    },
    {
      name: "tablerow-claimed-twice",
      claim:
        "xcat:TableRow resources 'route-a' and 'route-b' both manage the table row 'routes:routename=privnet'",
    },
    {
      name: "vm-claimed-twice",
      claim: "xcat:VirtualMachine resources 'vm02' and 'vm02-again' both manage the virtual machine 'vm02'",
    },
  ])("$name", async ({ name, claim }) => {
    const preview = await workspace.run(["preview", "--config", `case=${name}`], { allowFailure: true });
    const output = outputOf(preview);
    expect(preview.exitCode).not.toBe(0);
    expect(output).toContain(`${claim} on ${emulator.url}`);
    expect(output).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    // The first node is valid, so its check may prove the connection (one POST /tokens, #16 item
    // 4); nothing else reaches the server and nothing changes there.
    expect(requestsBesidesTokens(emulator)).toBe(0);
    expect(emulator.state.snapshot()).toBe(snapshot);
    expect(output).not.toContain(MISSPELT_PASSWORD_VALUE);
  });

  it("never prints nor stores the value of a misspelt password attribute, even from up (issue 16, item 2)", async () => {
    const up = await workspace.run(["up", "--yes", "--config", "case=node-misspelt-password"], {
      allowFailure: true,
    });
    expect(up.exitCode).not.toBe(0);
    expect(outputOf(up)).toMatch(/did you mean 'bmcpassword'/);
    expect(outputOf(up)).not.toContain(MISSPELT_PASSWORD_VALUE);
    // The stack's state, as `pulumi stack export` prints it (read from the file backend).
    const exported = await workspace.exportState();
    expect(exported.text).not.toContain(MISSPELT_PASSWORD_VALUE);
    expect(requestsBesidesTokens(emulator)).toBe(0);
  });
});
