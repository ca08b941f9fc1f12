/**
 * Issue #37 item 5 on the real engine: the policy pack installed from the tarball refuses a literal
 * ip equal to the one a group's regex gives another node (what import writes for every rack node),
 * naming both, in the preview, before anything reaches the management node.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { PulumiWorkspace } from "./support/pulumi-workspace";

let emulator: RunningEmulator;
let ws: PulumiWorkspace | undefined;

beforeAll(async () => {
  emulator = await startEmulator({ bootSeconds: 1 });
});

afterAll(async () => {
  await ws?.dispose();
  await emulator?.close();
});

describe("the policy pack on group regex values", () => {
  it("refuses a literal ip equal to another node's group-regex ip, naming both; nothing is written", async () => {
    const sandbox = inject("e2eSandbox");
    ws = await PulumiWorkspace.create({
      programDir: join(import.meta.dirname, "fixtures/cluster-rules"),
      sandboxDir: sandbox,
      env: { XCAT_URL: emulator.url, XCAT_USERNAME: "root", XCAT_PASSWORD: EMULATOR_DEFAULT_PASSWORD },
    });
    await ws.setConfig("regexMistake", "true");
    const pack = join(sandbox, "node_modules/pulumi-xcat/policy-pack");
    const refused = await ws.run(["preview", "--policy-pack", pack], { allowFailure: true });
    const output = `${refused.stdout}${refused.stderr}`.replace(/\s+/g, " ");
    expect(refused.exitCode, output).not.toBe(0);
    expect(output).toContain("[mandatory] unique-node-ip");
    // Both named, in either order (the rule lists them as it meets them).
    const regexSide = `Node "r02n01" (node r02n01, from Group "rack02"'s |r(\\d+)n(\\d+)|10.0.($1+0).($2+0)|)`;
    const literalSide = `Node "login01" (node login01)`;
    const either = [
      `ip 10.0.2.1 is given to both ${regexSide} and ${literalSide}`,
      `ip 10.0.2.1 is given to both ${literalSide} and ${regexSide}`,
    ];
    expect(
      either.some((text) => output.includes(text)),
      output,
    ).toBe(true);
    const writes = Object.entries(emulator.stats().byRoute).filter(
      ([route]) => /^(POST|PUT|DELETE) /.test(route) && route !== "POST /tokens",
    );
    expect(writes).toEqual([]);
  });
});
