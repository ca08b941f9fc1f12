/**
 * The value xCAT gives a node from its own row and its groups' in order (Table.pm
 * getNodeAttribs_nosub_returnany 2974-3100, xcat2/xcat-core 7733d16), regexes expanded.
 */
import { describe, expect, it } from "vitest";
import { inheritedValue, UNKNOWN_STORED } from "../../src/contract/inherited-value";

const RACK_REGEX = "|r(\\d+)n(\\d+)|10.0.($1+0).($2+0)|";

describe("inheritedValue", () => {
  it("takes the node's own value before any group's", () => {
    expect(inheritedValue("r02n07", "10.9.9.9", ["rack02"], () => RACK_REGEX)).toEqual({
      stored: "10.9.9.9",
      value: { kind: "value", value: "10.9.9.9" },
      group: undefined,
    });
  });

  it("takes the first group in the node's order that has a value, expanding its regex", () => {
    const stored: Record<string, string> = { all: "10.1.1.1", rack02: RACK_REGEX };
    expect(inheritedValue("r02n07", "", ["compute", "rack02", "all"], (group) => stored[group])).toEqual({
      stored: RACK_REGEX,
      value: { kind: "value", value: "10.0.2.7" },
      group: "rack02",
    });
  });

  it("is unknown when the value that decides is unknown, and undefined when none has one", () => {
    expect(inheritedValue("r02n07", undefined, ["rack02"], () => UNKNOWN_STORED)).toBe(UNKNOWN_STORED);
    expect(inheritedValue("r02n07", UNKNOWN_STORED, [], () => undefined)).toBe(UNKNOWN_STORED);
    expect(inheritedValue("r02n07", undefined, ["compute"], () => undefined)).toBeUndefined();
  });
});
