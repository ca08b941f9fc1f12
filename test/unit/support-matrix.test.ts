/**
 * docs/support-matrix.md is a claim per cell (a capability on a way in): "works" or "refused" must
 * name the tests that show it, and each named test must exist under that title in a file `npm test`
 * runs; every other cell says why it is not shown ("gap" or "not run here", each with a note). So
 * the matrix cannot claim more than the suite checks, and no cell is left silent.
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const repoRoot = resolve(import.meta.dirname, "../..");
const matrixPath = resolve(repoRoot, "docs/support-matrix.md");

/** Cell statuses: the first two need tests, the last two need a note that says why. */
const STATUSES = ["works", "refused", "gap", "not run here", "n/a"] as const;
type Status = (typeof STATUSES)[number];

interface Cell {
  readonly row: string;
  readonly column: string;
  readonly status: Status;
  readonly refs: readonly string[];
}

interface Reference {
  readonly id: string;
  readonly file?: string | undefined;
  readonly title?: string | undefined;
}

function parseMatrix(text: string): { columns: string[]; cells: Cell[]; refs: Map<string, Reference> } {
  const tableLines = text.split("\n").filter((line) => line.startsWith("|"));
  const splitRow = (line: string) =>
    line
      .slice(1, line.endsWith("|") ? -1 : undefined)
      .split("|")
      .map((cell) => cell.trim());
  const [header, , ...rows] = tableLines;
  const columns = splitRow(header ?? "").slice(1);
  const cells: Cell[] = [];
  for (const line of rows) {
    const [row = "", ...values] = splitRow(line);
    values.forEach((value, index) => {
      const match = /^(works|refused|gap|not run here|n\/a)\b\s*(?:\[([^\]]*)\])?$/.exec(value);
      if (!match)
        throw new Error(
          `docs/support-matrix.md: cell "${value}" (${row} / ${columns[index]}) has no known status`,
        );
      cells.push({
        row,
        column: columns[index] ?? "",
        status: match[1] as Status,
        refs: (match[2] ?? "")
          .split(",")
          .map((ref) => ref.trim())
          .filter((ref) => ref !== ""),
      });
    });
  }
  const refs = new Map<string, Reference>();
  // - **T1** `test/e2e/resources.test.ts`: "up creates every resource"
  for (const match of text.matchAll(/^- \*\*([A-Z]\d+)\*\* (?:`([^`]+)`: "([^"]+)")?/gm)) {
    refs.set(match[1] ?? "", { id: match[1] ?? "", file: match[2], title: match[3] });
  }
  return { columns, cells, refs };
}

const matrix = parseMatrix(readFileSync(matrixPath, "utf8"));

describe("docs/support-matrix.md", () => {
  it("has a status in every cell of every row", () => {
    expect(matrix.columns.length).toBeGreaterThanOrEqual(6);
    expect(matrix.cells.length).toBeGreaterThan(0);
    for (const cell of matrix.cells) expect(STATUSES).toContain(cell.status);
  });

  it("backs every works and refused cell with tests, and every other cell with a note", () => {
    for (const cell of matrix.cells) {
      const where = `${cell.row} / ${cell.column}`;
      if (cell.status === "works" || cell.status === "refused") {
        expect(
          cell.refs.filter((ref) => ref.startsWith("T")),
          where,
        ).not.toEqual([]);
      } else if (cell.status !== "n/a") {
        expect(
          cell.refs.filter((ref) => ref.startsWith("N")),
          where,
        ).not.toEqual([]);
      }
      for (const ref of cell.refs)
        expect(matrix.refs.has(ref), `${where}: [${ref}] is not defined`).toBe(true);
    }
  });

  it("names tests that exist under those titles in files npm test runs", () => {
    const tests = [...matrix.refs.values()].filter((ref) => ref.id.startsWith("T"));
    expect(tests.length).toBeGreaterThan(0);
    for (const ref of tests) {
      expect(ref.file, `${ref.id} names no file`).toMatch(
        /^test\/(unit|e2e|provider|client|emulator|confluent-emulator)\/.+\.test\.ts$/,
      );
      // Files that run only against a real management node are skipped by npm test.
      expect(ref.file, `${ref.id}: ${ref.file} runs only against a real server`).not.toMatch(
        /real-(xcat|confluent)/,
      );
      const path = resolve(repoRoot, ref.file ?? "");
      expect(existsSync(path), `${ref.id}: ${ref.file} does not exist`).toBe(true);
      const source = readFileSync(path, "utf8");
      const quoted = [`"${ref.title}"`, `'${ref.title}'`, `\`${ref.title}\``];
      expect(
        quoted.some((title) => source.includes(title)),
        `${ref.id}: no test titled "${ref.title}" in ${ref.file}`,
      ).toBe(true);
    }
  });
});
