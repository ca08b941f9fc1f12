/**
 * Node names as compact noderanges within one request's URL (noderange-chunks.ts): what bounds a
 * merged read of several NodeSets is the request line (Apache's LimitRequestLine, 8,190 bytes by
 * default), not a count of names.
 */
import { describe, expect, it } from "vitest";
import { encodeSegment } from "../../src/client/names";
import { NODERANGE_URL_BUDGET, noderangeChunks } from "../../src/client/noderange-chunks";
import { compressNoderange, expandNoderange } from "../../src/contract/noderange";

const expand = (range: string) =>
  expandNoderange(range, { isNode: () => true, groupMembers: () => undefined });

describe("noderangeChunks", () => {
  it("keeps 10,000 nodes of 250 racks in one request: their noderange is a few bytes", () => {
    const names: string[] = [];
    for (let rack = 1; rack <= 250; rack += 1)
      for (let n = 1; n <= 40; n += 1)
        names.push(`r${String(rack).padStart(3, "0")}n${String(n).padStart(2, "0")}`);
    const chunks = noderangeChunks(names.reverse());
    expect(chunks).toHaveLength(1);
    expect(compressNoderange(chunks[0] ?? [])).toBe("r[001-250]n[01-40]");
  }, 60_000);

  it("cuts names that do not compress into requests within the budget, losing and repeating none", () => {
    // Every third node of five racks, with an odd name between: ranges of one or two names.
    const names: string[] = [];
    for (let n = 0; n < 3_000; n += 3) names.push(`cn${String(n).padStart(5, "0")}`, `login${n}x`);
    const chunks = noderangeChunks(names);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks)
      expect(encodeSegment(compressNoderange(chunk)).length).toBeLessThanOrEqual(NODERANGE_URL_BUDGET);
    const back = chunks.flatMap((chunk) => expand(compressNoderange(chunk)));
    expect(back.sort()).toEqual([...new Set(names)].sort());
  }, 60_000);

  it("gives a lone name its own chunk, however long", () => {
    expect(noderangeChunks(["n01"], 2)).toEqual([["n01"]]);
    expect(noderangeChunks([])).toEqual([]);
  });
});
