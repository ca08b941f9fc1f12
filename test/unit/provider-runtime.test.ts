import { describe, expect, it } from "vitest";
import * as runtime from "../../src/provider/runtime";

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
});
