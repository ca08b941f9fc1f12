/**
 * Issue 16, item 7: a misspelled attribute in a TypeScript program fails type checking with an
 * error that names the object's attribute interface (NodeAttributes, ...), not a 180-member
 * Record, and each attribute carries xCAT's own description (Schema.pm) as its doc comment.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";

const INDEX = resolve(import.meta.dirname, "../../src/index.ts");

/** Type-checks `source` (a program that imports pulumi-xcat as `xcat`) and returns its errors. */
function typeErrors(source: string): string[] {
  const file = join(mkdtempSync(join(tmpdir(), "xcat-types-")), "program.ts");
  writeFileSync(file, `import * as xcat from ${JSON.stringify(INDEX.replace(/\.ts$/, ""))};\n${source}`);
  const program = ts.createProgram([file], {
    strict: true,
    exactOptionalPropertyTypes: true,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    target: ts.ScriptTarget.ES2022,
    esModuleInterop: true,
    skipLibCheck: true,
    noEmit: true,
    types: ["node"],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName === file)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

describe("attribute interfaces generated from xCAT's schema", () => {
  let errors: string[] = [];

  // One compilation for all cases: each costs seconds.
  beforeAll(() => {
    errors = typeErrors(
      [
        `new xcat.Node("cn01", { groups: ["all"], attributes: { netbot: "xnba" } });`,
        `new xcat.Group("g", { attributes: { mgtt: "ipmi" } });`,
        `new xcat.Osimage("i", { attributes: { osver: "rhels9" } });`,
        `new xcat.Network("n", { net: "10.0.0.0", mask: "255.0.0.0", attributes: { gatway: "10.0.0.1" } });`,
        `new xcat.Policy("p", { priority: "6", attributes: { rules: "allow" } });`,
        `new xcat.Node("cn02", { groups: ["all"], attributes: { netboot: "xnba", mgt: "ipmi", bmcpassword: "x" } });`,
      ].join("\n"),
    );
  }, 120_000);

  it("a misspelled node attribute names NodeAttributes", () => {
    expect(errors[0]).toMatch(/'netbot' does not exist in type '(Input<)?NodeAttributes>?'/);
  });

  it("names the interface of each object type, and accepts correct attributes", () => {
    expect(errors.map((e) => e.match(/in type '(?:Input<)?(\w+)>?'/)?.[1])).toEqual([
      "NodeAttributes",
      "GroupAttributes",
      "OsimageAttributes",
      "NetworkAttributes",
      "PolicyAttributes",
    ]);
  });

  it("documents each attribute with xCAT's description and where it is stored", () => {
    const source = readFileSync(
      resolve(import.meta.dirname, "../../src/contract/xcat-schema.generated.ts"),
      "utf8",
    );
    // Schema.pm, table ipmi, descriptions => { bmc => 'The hostname of the BMC adapter.' }.
    expect(source).toContain(
      '  /**\n   * The hostname of the BMC adapter.\n   *\n   * xCAT: ipmi.bmc.\n   */\n  readonly "bmc"?: V;',
    );
  });
});
