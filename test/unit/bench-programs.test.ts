/**
 * The bench's NodeSet variants describe one cluster (bench/programs.mjs): the JavaScript program
 * of the dynamic classes, the same program on the native classes, and the YAML program with its
 * CSV inventories hold the same sets, nodes, per-node values and common values, so their figures
 * compare the ways in, not different stacks. The JavaScript programs run here with a `require`
 * that records each resource instead of registering it (running them for real is the bench's).
 */
import { load } from "js-yaml";
import { describe, expect, it } from "vitest";
import {
  nodeSetYamlFiles,
  XCAT_NODESET_NATIVE_PROGRAM,
  XCAT_NODESET_PROGRAM,
} from "../../bench/programs.mjs";

type Declared = { type: string; name: string; args: Record<string, unknown> };

/** Runs a bench program with `env`, recording what it declares through the module it requires. */
function declaredBy(program: string, env: Record<string, string>): { module: string; resources: Declared[] } {
  const resources: Declared[] = [];
  let module = "";
  const fakeRequire = (name: string) => {
    module = name;
    return new Proxy(
      {},
      {
        get: (_target, type: string) =>
          function Resource(name: string, args: Record<string, unknown>) {
            resources.push({ type, name, args });
          },
      },
    );
  };
  new Function("require", "process", program)(fakeRequire, { env });
  return { module, resources };
}

/** The YAML program's resources, each NodeSet's `csv` read from its inventory file. */
function declaredByYaml(files: Record<string, string>, image: string): Declared[] {
  const program = load(files["Pulumi.yaml"] ?? "") as {
    runtime: string;
    resources: Record<string, { type: string; properties: Record<string, unknown> }>;
  };
  expect(program.runtime).toBe("yaml");
  return Object.entries(program.resources).map(([name, { type, properties }]) => {
    // YAML's interpolation of the stack's config value `benchImage`.
    const args = JSON.parse(JSON.stringify(properties).replaceAll(/\$\{benchImage\}/g, image));
    if (args.csv !== undefined) {
      const path = String(args.csv["fn::readFile"]).replace(/^\.\//, "");
      const [header, ...lines] = (files[path] ?? "").trim().split("\n");
      const columns = (header ?? "").split(",").slice(1);
      args.rows = Object.fromEntries(
        lines.map((line) => {
          const [node, ...cells] = line.split(",");
          return [node, Object.fromEntries(columns.map((c, i) => [c, cells[i]]))];
        }),
      );
      delete args.csv;
    }
    return { type: type.replace(/^xcat:index:/, ""), name, args };
  });
}

describe("bench programs: the NodeSet variants are one cluster", () => {
  const env = { BENCH_NODES: "85", BENCH_SET_SIZE: "40", BENCH_IMAGE: "img-b" };

  it("the dynamic and the native program differ only in the module they require", () => {
    const dynamic = declaredBy(XCAT_NODESET_PROGRAM, env);
    const native = declaredBy(XCAT_NODESET_NATIVE_PROGRAM, env);
    expect(dynamic.module).toBe("pulumi-xcat");
    expect(native.module).toBe("pulumi-xcat/native");
    expect(native.resources).toEqual(dynamic.resources);
    const sets = dynamic.resources.filter((r) => r.type === "NodeSet");
    expect(sets.map((s) => s.name)).toEqual(["rack001", "rack002", "rack003"]);
    expect(Object.keys(sets[2]?.args.rows as object)).toEqual([
      "bn00081",
      "bn00082",
      "bn00083",
      "bn00084",
      "bn00085",
    ]);
  });

  it("the YAML program and its CSV inventories hold the same resources and values", () => {
    const dynamic = declaredBy(XCAT_NODESET_PROGRAM, env).resources;
    const yaml = declaredByYaml(nodeSetYamlFiles(85, 40), "img-b");
    // The same names and types, the same values: the YAML's Network, Group, Osimage and site
    // attribute, and each set's groups, common attributes (the image from config) and rows.
    const byName = (list: Declared[]) => Object.fromEntries(list.map((r) => [r.name, r]));
    expect(byName(yaml)).toEqual(byName(dynamic));
    expect(Object.keys(nodeSetYamlFiles(10_000, 40)).filter((f) => f.endsWith(".csv"))).toHaveLength(250);
  });
});
