/**
 * Issue 40: `require("pulumi-xcat")`, which every TypeScript program runs at each preview and up,
 * loads the resource classes and the client's light parts only; the client's requests (undici, zod,
 * p-retry) load at the first use of XcatClient, DEFAULT_RETRY or shouldRetry. The package's API is
 * what `export * from "./client"` gave before: every name of src/client/index.ts, as a value where
 * it is one, and named ES-module imports of the lazy names work.
 */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const repoRoot = resolve(import.meta.dirname, "../..");

/** Runs Node in the repository (where node_modules/pulumi-xcat links to it) and parses its JSON output. */
function nodeJson(args: readonly string[]): unknown {
  const run = spawnSync(process.execPath, args, { cwd: repoRoot, encoding: "utf8" });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout);
}

/** Packages under node_modules that a module's load brought in, by name. */
const LOADED_PACKAGES = `
  const before = new Set(Object.keys(require.cache));
  const m = require("./dist/index.js");
  const loaded = () => [...new Set(Object.keys(require.cache).filter((f) => !before.has(f))
    .map((f) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(f)?.[1]).filter(Boolean))].sort();
`;

// Each case starts Node or the TypeScript compiler: seconds on a busy machine.
describe("the package's top-level module", () => {
  it("loads no HTTP client, schema library or retry library until the client is used", () => {
    const result = nodeJson([
      "-e",
      `${LOADED_PACKAGES}
      const atLoad = loaded();
      const client = new m.XcatClient({ url: "http://127.0.0.1:9/xcatws", username: "u", password: "p" });
      process.stdout.write(JSON.stringify({ atLoad, afterUse: loaded(), isClient: client instanceof m.XcatClient,
        retry: typeof m.shouldRetry, defaults: typeof m.DEFAULT_RETRY }));`,
    ]) as { atLoad: string[]; afterUse: string[]; isClient: boolean; retry: string; defaults: string };
    for (const heavy of ["undici", "zod", "p-retry"]) expect(result.atLoad).not.toContain(heavy);
    expect(result.afterUse).toEqual(expect.arrayContaining(["undici", "zod"]));
    expect(result).toMatchObject({ isClient: true, retry: "function", defaults: "object" });
  }, 300_000);

  it("loads nothing of the native classes (pulumi-xcat/native), which are a subpath of their own", () => {
    const result = nodeJson([
      "-e",
      `const before = new Set(Object.keys(require.cache));
      require("pulumi-xcat");
      const fromMain = Object.keys(require.cache).filter((f) => !before.has(f) && f.includes("/dist/native-sdk/"));
      const native = require("pulumi-xcat/native");
      process.stdout.write(JSON.stringify({ fromMain, node: native.Node.__pulumiType,
        provider: typeof native.Provider, dynamicNode: require("pulumi-xcat").Node === native.Node }));`,
    ]);
    expect(result).toEqual({
      fromMain: [],
      node: "xcat:index:Node",
      provider: "function",
      dynamicNode: false,
    });
  }, 300_000);

  it("gives an ES module the lazy names as named imports", () => {
    const result = nodeJson([
      "--input-type=module",
      "-e",
      `import { XcatClient, DEFAULT_RETRY, shouldRetry, XcatError, isNotFound } from "pulumi-xcat";
      process.stdout.write(JSON.stringify([XcatClient.name, typeof DEFAULT_RETRY, typeof shouldRetry,
        XcatError.name, typeof isNotFound]));`,
    ]);
    expect(result).toEqual(["XcatClient", "object", "function", "XcatError", "function"]);
  }, 300_000);

  it("exports every name of the client's index, as a value where the client's is one", () => {
    const program = ts.createProgram([resolve(repoRoot, "src/index.ts")], {
      strict: true,
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      target: ts.ScriptTarget.ES2022,
      skipLibCheck: true,
      noEmit: true,
      types: ["node"],
    });
    const checker = program.getTypeChecker();
    const exportsOf = (file: string) => {
      const source = program.getSourceFile(resolve(repoRoot, file));
      const symbol = source && checker.getSymbolAtLocation(source);
      if (!symbol) throw new Error(`${file} not in the program`);
      return new Map(checker.getExportsOfModule(symbol).map((s) => [s.name, s]));
    };
    const isValue = (symbol: ts.Symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return (target.flags & ts.SymbolFlags.Value) !== 0;
    };
    const client = exportsOf("src/client/index.ts");
    const pkg = exportsOf("src/index.ts");
    // The TableRow resource class shadows the client's TableRow type, as under `export *`.
    const shadowed = new Set(["TableRow"]);
    const missing = [...client.keys()].filter((name) => !pkg.has(name));
    const notValues = [...client]
      .filter(([name, symbol]) => !shadowed.has(name) && isValue(symbol))
      .filter(([name]) => {
        const own = pkg.get(name);
        return own === undefined || !isValue(own);
      })
      .map(([name]) => name);
    expect(client.size).toBeGreaterThan(60);
    expect(missing).toEqual([]);
    expect(notValues).toEqual([]);
  }, 300_000);
});
