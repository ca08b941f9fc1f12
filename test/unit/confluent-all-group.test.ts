/**
 * xCAT's group `all` in a noderange on the Confluent backend: Confluent's group of every node is
 * `everything` (configmanager.py 3.15.6 lines 1400-1416), and a real 3.15.6 answers a noderange
 * naming a group it lacks with 404 "Invalid Noderange: all not a recognized node, group, or alias"
 * (/work/shared/real-confluent.md item 12), so `all` must not be sent as it is.
 */
import { describe, expect, it } from "vitest";
import { confluentNoderangeOf } from "../../src/contract/confluent/xcat-attribute-map";

describe("confluentNoderangeOf", () => {
  it("names everything where the program names all, alone or as one element", () => {
    expect(confluentNoderangeOf("all")).toBe("everything");
    expect(confluentNoderangeOf("all,-n3")).toBe("everything,-n3");
    expect(confluentNoderangeOf("compute,-all")).toBe("compute,-everything");
  });

  it("leaves every other element as written, including names that merely contain all", () => {
    expect(confluentNoderangeOf("n1,n2")).toBe("n1,n2");
    expect(confluentNoderangeOf("allnodes,ball,all1")).toBe("allnodes,ball,all1");
    expect(confluentNoderangeOf("n[1-4]")).toBe("n[1-4]");
  });
});
