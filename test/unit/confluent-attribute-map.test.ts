/**
 * The xCAT → Confluent attribute table and the |regex| translation. Expected expressions follow
 * configmanager.py _ExpressionFormat at confluent 3.15.6 (lines 1130-1220): n<k> is the k-th run of
 * digits of the node name as an int (re.findall('[0-9]+')), so leading zeros are dropped, and a
 * format spec after ':' applies Python's format().
 */
import { describe, expect, it } from "vitest";
import {
  confluentValueOf,
  mappingOfConfluent,
  mappingOfXcat,
  reasonWithoutCounterpart,
  xcatRegexToExpression,
  xcatValueOf,
} from "../../src/contract/confluent/xcat-attribute-map";
import { expandTemplate } from "../../src/contract/regex-values";

/** What Confluent computes for an expression of the supported subset, for one node name. */
function confluentExpand(expression: string, node: string): string {
  const numbers = (node.match(/[0-9]+/g) ?? []).map(Number);
  return expression.replace(/\{\{|\}\}|\{([^{}]*)\}/g, (whole, body: string | undefined) => {
    if (body === undefined) return whole[0] ?? "";
    const [expr = "", spec] = body.split(":");
    const value = Function(
      ...numbers.map((_, i) => `n${i + 1}`),
      `return Math.trunc(${expr.replace(/\//g, "/")});`,
    )(...numbers) as number;
    const width = spec ? Number(/^0(\d+)d$/.exec(spec)?.[1]) : 0;
    return String(value).padStart(width, "0");
  });
}

describe("the attribute table", () => {
  it("maps the attributes the bar needs both ways", () => {
    expect(mappingOfXcat("bmc")?.confluent).toBe("hardwaremanagement.manager");
    expect(mappingOfXcat("bmcpassword")).toMatchObject({
      confluent: "secret.hardwaremanagementpassword",
      writeOnly: true,
    });
    expect(mappingOfXcat("ip")?.confluent).toBe("net.ipv4_address");
    expect(mappingOfXcat("mac")?.confluent).toBe("net.hwaddr");
    expect(mappingOfConfluent("hardwaremanagement.method")?.xcat).toBe("mgt");
    expect(mappingOfXcat("postscripts")).toBeUndefined();
  });

  it("translates list words and refuses words with no counterpart", () => {
    const mgt = mappingOfXcat("mgt");
    if (!mgt) throw new Error("mgt is mapped");
    expect(confluentValueOf(mgt, "ipmi")).toEqual({ value: "ipmi" });
    expect(confluentValueOf(mgt, "openbmc")).toMatchObject({ problem: expect.stringContaining("openbmc") });
    const consoleondemand = mappingOfXcat("consoleondemand");
    if (!consoleondemand) throw new Error("mapped");
    expect(confluentValueOf(consoleondemand, "yes")).toEqual({ value: "none" });
    expect(xcatValueOf(consoleondemand, "none")).toBe("yes");
    expect(xcatValueOf(consoleondemand, "memory")).toBe("memory");
  });

  it("doubles braces of plain values, which Confluent would read as an expression", () => {
    const comment = mappingOfXcat("usercomment");
    if (!comment) throw new Error("mapped");
    expect(confluentValueOf(comment, "a {b}")).toEqual({ value: "a {{b}}" });
  });

  it("says why an attribute has no counterpart", () => {
    expect(reasonWithoutCounterpart("postscripts")).toMatch(/deployment profile/);
    expect(reasonWithoutCounterpart("nosuch")).toMatch(/attributes\.py/);
  });
});

describe("xCAT |regex| values as Confluent expressions", () => {
  // What xCAT computes is transRegexAttrs as run in docs/xcat-behavior-found.md 10: ($1) keeps the
  // digits as written, ($1+0) is the number, $1 outside a bracket stays as written, and a match
  // that leaves part of the name over evaluates that part too, so the idiom is a pattern that
  // matches the whole name: names it does not are not compared.
  const translatable: Array<[string, string]> = [
    ["|\\D+(\\d+)|10.0.0.($1+0)|", "10.0.0.{n1}"],
    ["|\\D+(\\d+)|10.0.0.($1+100)|", "10.0.0.{n1+100}"],
    ["|^node(\\d+)$|node($1+0)-bmc|", "node{n1}-bmc"],
    ["|^node(\\d{3})$|node($1)-bmc|", "node{n1:03d}-bmc"],
    ["|^r(\\d+)n(\\d+)$|10.($1+0).0.($2*2+1)|", "10.{n1}.0.{n2*2+1}"],
    ["|^r\\d+n(\\d+)$|10.1.0.($1+0)|", "10.1.0.{n2}"],
    ["|^node(\\d{3})$|bmc($1)|", "bmc{n1:03d}"],
  ];
  it.each(translatable)("%s → %s, with the value xCAT computes for each name", (xcat, expression) => {
    expect(xcatRegexToExpression(xcat)).toEqual({ expression });
    for (const node of ["node001", "node042", "r2n7", "r10n123", "r02n007"]) {
      const pattern = /^\|(.*?)\|/.exec(xcat)?.[1] ?? "";
      if (!new RegExp(`^(?:${pattern.replace(/^\^/, "").replace(/\$$/, "")})$`).test(node)) continue;
      expect(confluentExpand(expression, node)).toBe(expandTemplate(xcat, node));
    }
  });

  const refused: Array<[string, RegExp]> = [
    ["|\\D+(\\d+)|node$1|", /outside a bracket xCAT keeps \$1 as written/],
    ["|^node(\\d{3})$|bmc$1|", /outside a bracket/],
    ["|^node(\\d+)$|node($1)-bmc|", /leading zeros/],
    ["|node(\\d+)|10.0.0.($1)|", /start it with \^/],
    ["|^(\\w+)$|$1-bmc|", /cannot express/],
    ["/\\z/-bmc/", /edits the node name/],
    ["|^n(\\d+)(\\d+)$|($1)|", /nothing between/],
  ];
  it.each(refused)("refuses %s, saying why", (xcat, reason) => {
    const result = xcatRegexToExpression(xcat);
    expect(result).toMatchObject({ problem: expect.stringMatching(reason) });
  });
});
