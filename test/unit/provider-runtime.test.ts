import { describe, expect, it } from "vitest";
import * as runtime from "../../src/provider/runtime";
import { providerText, thinProvider } from "../../src/provider/thin-provider";

describe("provider runtime dispatch", () => {
  it("delegates to the implementation of a known kind", async () => {
    const created = await runtime.create("xcat:Echo", { message: "abc" });
    expect(created.outs).toEqual({ message: "abc", length: 3 });
    expect(await runtime.diff("xcat:Echo", created.id, created.outs, { message: "abc" })).toEqual({
      changes: false,
    });
    expect(await runtime.diff("xcat:Echo", created.id, created.outs, { message: "abcd" })).toEqual({
      changes: true,
    });
  });

  it("reports check failures by property", async () => {
    expect(await runtime.check("xcat:Echo", {}, { message: 42 })).toEqual({
      failures: [{ property: "message", reason: "xcat:Echo: 'message' must be a string" }],
    });
  });

  it("names the unknown kind and what to do about it", async () => {
    await expect(runtime.create("xcat:Nope", {})).rejects.toThrow(
      /pulumi-xcat has no resource kind 'xcat:Nope'.*install that version/,
    );
  });

  it("the state's provider text is one line whose handler is the runtime's provider for the kind", async () => {
    const text = providerText(thinProvider("xcat:Echo"));
    expect(text.split("\n").filter(Boolean)).toHaveLength(1);
    // What Pulumi's dynamic-provider host does with it: require the text as a module, call handler().
    const module = { exports: {} as { handler?: () => unknown } };
    const requireRuntime = (id: string) => {
      expect(id).toBe("pulumi-xcat/provider-runtime");
      return runtime;
    };
    new Function("exports", "require", "module", text)(module.exports, requireRuntime, module);
    const provider = module.exports.handler?.() as Required<
      import("@pulumi/pulumi").dynamic.ResourceProvider
    >;
    const created = await provider.create({ message: "abc" });
    expect(created.outs).toEqual({ message: "abc", length: 3 });
    expect(await provider.diff(created.id, created.outs, { message: "abcd" })).toEqual({ changes: true });
    expect(await provider.check({}, { message: 42 })).toEqual(
      await runtime.check("xcat:Echo", {}, { message: 42 }),
    );
  });

  it("a provider text for a kind this version does not know fails when the host asks for it, naming the kind", () => {
    expect(() => runtime.providerFor("xcat:Nope")).toThrow(/pulumi-xcat has no resource kind 'xcat:Nope'/);
  });
});
