import { describe, expect, it } from "vitest";
import { isUsageError } from "../../src/client/errors";
import {
  attributeListSegment,
  encodeSegment,
  keysSegment,
  keywordSegment,
  noderangeSegment,
  objectSegment,
  tableListSegment,
} from "../../src/client/names";

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(isUsageError(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error("expected a refusal");
}

describe("object names", () => {
  it("passes ordinary names through", () => {
    expect(objectSegment("compute-01", "node name")).toBe("compute-01");
    expect(objectSegment("1.2", "policy priority")).toBe("1.2");
    expect(objectSegment("rhels8.6-x86_64-install-compute", "osimage name")).toBe(
      "rhels8.6-x86_64-install-compute",
    );
  });

  it.each([
    ["", /node name is empty/],
    ["a/b", /"a\/b" contains '\/', which would change the request path/],
    ["..", /contains '\.\.'/],
    ["a..b", /contains '\.\.'/],
    ["a?b", /contains '\?'/],
    ["a#b", /contains '#'/],
    ["a%2Fb", /contains '%'/],
    ["a b", /contains whitespace/],
    ["a\tb", /contains whitespace/],
    ["a\\b", /contains '\\'/],
    ["a,b", /use getMany\(\)/],
    ["ALLRESOURCES", /keyword/],
  ])("refuses %j", (name, message) => {
    expect(refusal(() => objectSegment(name, "node name"))).toMatch(message);
  });

  it("refuses non-strings", () => {
    expect(refusal(() => objectSegment(42 as unknown as string, "node name"))).toMatch(/must be a string/);
  });
});

describe("noderanges and lists", () => {
  it("joins lists and keeps xCAT's range syntax, percent-encoding what a path needs", () => {
    expect(noderangeSegment(["n01", "n02"])).toBe("n01,n02");
    expect(noderangeSegment("n[01-10],rack1")).toBe("n%5B01-10%5D,rack1");
    expect(noderangeSegment("ALLRESOURCES")).toBe("ALLRESOURCES");
    expect(noderangeSegment("n1+2")).toBe("n1%2B2");
  });

  it("refuses empty elements and path breakers", () => {
    expect(refusal(() => noderangeSegment([]))).toMatch(/empty/);
    expect(refusal(() => noderangeSegment("n1,,n2"))).toMatch(/empty element/);
    expect(refusal(() => noderangeSegment(["n1", "a/b"]))).toMatch(/'\/'/);
    expect(refusal(() => noderangeSegment(["n1,n2"]))).toMatch(/pass list elements separately/);
    expect(refusal(() => noderangeSegment("^/tmp/nodes"))).toMatch(/'\/'/);
  });

  it("validates attribute, table and keyword lists", () => {
    expect(attributeListSegment(["groups", "nicips.eth0"])).toBe("groups,nicips.eth0");
    expect(refusal(() => attributeListSegment([]))).toMatch(/at least one/);
    expect(refusal(() => attributeListSegment(["a b"]))).toMatch(/not a valid attribute name/);
    expect(tableListSegment(["nodetype", "noderes"])).toBe("nodetype,noderes");
    expect(refusal(() => tableListSegment("node-type"))).toMatch(/table name/);
    expect(keywordSegment(["temp", "fanspeed"], "vitals item", ";")).toBe("temp%3Bfanspeed");
    expect(refusal(() => keywordSegment("a/b", "sp setting"))).toMatch(/sp setting/);
  });

  it("builds row keys and never quotes a secret column's value", () => {
    expect(keysSegment({ net: "10.0.0.0", mask: "255.0.0.0" })).toBe("net=10.0.0.0,mask=255.0.0.0");
    expect(refusal(() => keysSegment({}))).toMatch(/at least one row key/);
    expect(refusal(() => keysSegment({ routename: "a,b" }))).toMatch(/next key/);
    const message = refusal(() => keysSegment({ password: "se cret" }));
    expect(message).not.toContain("se cret");
    expect(message).toMatch(/REDACTED/);
  });

  it("percent-encodes everything but xCAT's list syntax", () => {
    expect(encodeSegment("a=b,c:d@e")).toBe("a=b,c:d@e");
    expect(encodeSegment("é")).toBe("%C3%A9");
  });
});
