/**
 * The toolchain smoke test: the real `pulumi` binary runs a TypeScript program whose dynamic
 * resource is served by pulumi-xcat's thin provider, installed from its `npm pack` tarball.
 */
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PulumiWorkspace } from "./support/pulumi-workspace";

describe("toolchain smoke: examples/smoke on the real engine", () => {
  let workspace: PulumiWorkspace;

  beforeAll(async () => {
    workspace = await PulumiWorkspace.create({
      programDir: resolve(import.meta.dirname, "../../examples/smoke"),
      sandboxDir: inject("e2eSandbox"),
    });
    await workspace.setConfig("message", "hello, xCAT");
  });

  afterAll(async () => {
    await workspace?.dispose();
  });

  it("up creates the stack and the dynamic resource", async () => {
    const changes = await workspace.up();
    expect(changes).toEqual({ create: 2 }); // the stack and xcat:Echo

    expect(await workspace.outputs()).toEqual({ echoed: "hello, xCAT", length: 11 });
    const { resources } = await workspace.exportState();
    const echo = resources.find((r) => r.type === "pulumi-nodejs:dynamic/xcat:Echo");
    expect(echo?.outputs?.length).toBe(11);
    // The provider text is one line naming the kind; the installed runtime does the rest
    // (thin-provider.ts), in the inputs and the outputs alike.
    const provider = String(echo?.inputs?.__provider);
    expect(provider).toBe(
      'exports.handler = () => require("pulumi-xcat/provider-runtime").providerFor("xcat:Echo");\n',
    );
    expect(echo?.outputs?.__provider).toBe(provider);
  });

  it("preview afterwards reports no changes", async () => {
    const preview = await workspace.preview();
    expect(preview.changeSummary).toEqual({ same: 2 });
    expect(preview.steps.every((step) => step.op === "same")).toBe(true);
  });

  it("an edited input updates in place", async () => {
    await workspace.setConfig("message", "hello again");
    expect(await workspace.up()).toEqual({ update: 1, same: 1 });
    expect(await workspace.outputs()).toEqual({ echoed: "hello again", length: 11 });
  });

  it("destroy removes everything", async () => {
    expect(await workspace.destroy()).toEqual({ delete: 2 });
    expect((await workspace.exportState()).resources).toEqual([]);
  });
});
