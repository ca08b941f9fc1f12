/** docs/confluent.md lists the attribute table exactly as src/contract/confluent/xcat-attribute-map.ts has it. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { mappingOfXcat, XCAT_TO_CONFLUENT } from "../../src/contract/confluent/xcat-attribute-map";

const doc = readFileSync(resolve(import.meta.dirname, "../../docs/confluent.md"), "utf8");

describe("docs/confluent.md", () => {
  const rows = [...doc.matchAll(/^\| `([a-z]+)` \| `([a-z0-9._]+)` \|/gm)].map(([, xcat, confluent]) => [
    xcat,
    confluent,
  ]);

  it("lists every row of the attribute table, and no other", () => {
    expect(rows).toEqual(XCAT_TO_CONFLUENT.map((mapping) => [mapping.xcat, mapping.confluent]));
  });

  it("calls write-only exactly the attributes the table marks so", () => {
    for (const [xcat] of rows) {
      const line = doc.split("\n").find((text) => text.startsWith(`| \`${xcat}\` |`)) ?? "";
      expect(line.includes("write-only"), xcat).toBe(mappingOfXcat(xcat ?? "")?.writeOnly === true);
    }
  });
});
