/**
 * Confluent's expressions and noderanges as the emulator evaluates them, checked against what the
 * 3.15.6 source does (config/configmanager.py:1130-1293 _ExpressionFormat; noderange.py:275-473)
 * and what the real server answered (test/confluent-emulator/recorded/).
 */
import { describe, expect, it } from "vitest";
import { type ExpressionScope, expandExpression } from "../../src/confluent-emulator/store/expressions";
import { Noderange, type NoderangeConfig, naturalSort } from "../../src/confluent-emulator/store/noderange";
import { formatWithoutArguments, PythonError } from "../../src/confluent-emulator/store/python-format";

function scope(nodeName: string, values: Record<string, string> = {}): ExpressionScope {
  return {
    nodeName,
    has: (a) => a in values,
    lookup: (a) => (a in values ? { value: values[a] } : undefined),
  };
}

describe("which strings are expressions (messages.py:829: value.format() with no arguments)", () => {
  it("a replacement field makes an expression; escapes collapse; an unbalanced brace is Python's ValueError", () => {
    expect(formatWithoutArguments("10.0.0.{n1}")).toBeUndefined();
    expect(formatWithoutArguments("{}")).toBeUndefined();
    expect(formatWithoutArguments("{{literal}}")).toBe("{literal}");
    expect(formatWithoutArguments("plain")).toBe("plain");
    expect(() => formatWithoutArguments("{n1")).toThrow(new PythonError("expected '}' before end of string"));
    expect(() => formatWithoutArguments("a}")).toThrow("Single '}' encountered in format string");
  });
});

describe("expansion (configmanager.py:1180 _handle_ast_node)", () => {
  it("n1 is the first number of the name, n0 the last; format specs pad", () => {
    expect(expandExpression("{n1}-{n0}-{n1:03}", scope("r3n14"))).toBe("3-14-003");
  });
  it("arithmetic: / is floor division, // is unsupported, << shifts", () => {
    expect(expandExpression("{n1 / 5}-{n1 % 5}-{n1 << 1}", scope("cfe12"))).toBe("2-2-24");
    expect(expandExpression("{n1+10}", scope("cfe15"))).toBe("25");
    expect(() => expandExpression("rack{n1//10}", scope("cfe5"))).toThrow("Unsupported operation");
  });
  it("attributes by dotted name, node, and string methods", () => {
    expect(expandExpression("{node.upper()}", scope("cfe12"))).toBe("CFE12");
    expect(expandExpression("{n0}-{location.room}", scope("cfe12", { "location.room": "r0" }))).toBe("12-r0");
    expect(
      expandExpression("{location.rack.replace('r', 'R')}", scope("n1", { "location.rack": "r7" })),
    ).toBe("R7");
    expect(expandExpression("{node[1:3]}", scope("cfe12"))).toBe("fe");
  });
  it("an unknown attribute is refused with Confluent's text; an unset known one reads empty", () => {
    expect(() => expandExpression("{nosuchvar}", scope("n1"))).toThrow(
      "nosuchvar is not a valid attribute name",
    );
    expect(expandExpression("x{location.rack}x", scope("n1"))).toBe("xx");
  });
});

const cluster: Record<string, string[]> = {
  compute: ["cfe1", "cfe2", "cfe3"],
  other: ["cfe1", "cfe2", "cfe3", "cfe4"],
};
const nodes = ["cfe1", "cfe2", "cfe3", "cfe4", "cfe10"];
const config: NoderangeConfig = {
  isNode: (n) => nodes.includes(n),
  isGroup: (g) => g in cluster,
  groupMembers: (g) => cluster[g] ?? [],
  allNodes: () => nodes,
  attributeValue: (node, attribute) => (attribute === "location.rack" && node === "cfe1" ? "r2" : ""),
};
const expand = (text: string) => naturalSort(new Noderange(config).expand(text));

describe("noderanges (noderange.py)", () => {
  it("unions, exclusions, intersections, ranges, brackets, regex and attribute matches", () => {
    expect(expand("cfe1-cfe4")).toEqual(["cfe1", "cfe2", "cfe3", "cfe4"]);
    expect(expand("cfe[2-3],cfe10")).toEqual(["cfe2", "cfe3", "cfe10"]);
    expect(expand("compute,-cfe2")).toEqual(["cfe1", "cfe3"]);
    expect(expand("other@compute,-cfe1")).toEqual(["cfe2", "cfe3"]);
    expect(expand("~cfe[23]")).toEqual(["cfe2", "cfe3"]);
    expect(expand("location.rack==r2")).toEqual(["cfe1"]);
    expect(expand("cfe1,-cfe1")).toEqual([]);
  });
  it("names that do not exist fail the whole range with Confluent's texts", () => {
    expect(() => expand("cfe1-cfe5")).toThrow("Unknown node cfe5");
    expect(() => expand("cfe[1-5]")).toThrow("cfe5 not a recognized node, group, or alias");
    expect(() => expand("cfe1,nosuch")).toThrow("nosuch not a recognized node, group, or alias");
  });
  it("without a configuration (creating nodes) names are taken as written", () => {
    expect(naturalSort(new Noderange().expand("n[1-3],n10"))).toEqual(["n1", "n2", "n3", "n10"]);
    expect(naturalSort(new Noderange().expand("n08-n10"))).toEqual(["n08", "n09", "n10"]);
  });
});
