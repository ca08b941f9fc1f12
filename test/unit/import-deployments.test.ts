/**
 * Import leaves a booted node's image to a Deployment (issue #36 item 5, deployments.ts): the
 * split of nodes' provmethod into one adopting Deployment per imported image, what stays on the
 * nodes (not booted, or an image the program does not declare), and both renderers' output.
 * nodeset writes provmethod (destiny.pm:294-319); `booted` is what xcatinstallpost:140 reports.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Pulumi YAML expressions are written as text here.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { splitDeployments } from "../../src/cli/import/deployments";
import { type ImportedCluster, renderProgram } from "../../src/cli/import/render";
import { renderYamlProgram } from "../../src/cli/import/render-yaml";
import { findRuns, type NodeEntry } from "../../src/cli/import/runs";

const yaml = createRequire(import.meta.url)("js-yaml") as { load(text: string): unknown };

const IMAGE = "rhels9-compute";
const node = (n: number, attributes: Record<string, string> = {}): NodeEntry => ({
  name: `r01n${String(n).padStart(2, "0")}`,
  groups: ["compute"],
  attributes: { ip: `10.0.1.${n}`, provmethod: IMAGE, ...attributes },
});

describe("splitDeployments", () => {
  const entries = [1, 2, 3, 4, 5, 6].map((n) => node(n));
  const statuses = new Map<string, string | undefined>([
    ["r01n01", "booted"],
    ["r01n02", "booted"],
    ["r01n03", "booted"],
    ["r01n04", "booted"],
    ["r01n05", "installing"],
    ["r01n06", undefined],
  ]);

  it("moves booted nodes' provmethod into one Deployment per image and leaves the rest on the nodes", () => {
    const split = splitDeployments(entries, statuses, new Set([IMAGE]));
    expect(split.deployments).toEqual([{ osimage: IMAGE, nodes: ["r01n01", "r01n02", "r01n03", "r01n04"] }]);
    expect(split.entries.map((entry) => entry.attributes.provmethod)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      IMAGE,
      IMAGE,
    ]);
    // Nothing else of the node changes.
    expect(split.entries[0]?.attributes).toEqual({ ip: "10.0.1.1" });
    expect(split.findings).toHaveLength(1);
    expect(split.findings[0]?.kind).toBe("not-booted");
    expect(split.findings[0]?.text).toContain("r01n05 (installing), r01n06 (no status)");
    expect(split.findings[0]?.text).toContain(`deploy-${IMAGE}`);
  });

  it("keeps a provmethod naming an image the program does not declare on the node, with no finding", () => {
    const split = splitDeployments(entries, statuses, new Set(["another-image"]));
    expect(split.deployments).toEqual([]);
    expect(split.entries).toEqual(entries);
    expect(split.findings).toEqual([]);
  });

  it("groups nodes by the image they booted", () => {
    const split = splitDeployments(
      [node(1), node(2, { provmethod: "rocky9" }), node(3)],
      new Map([
        ["r01n01", "booted"],
        ["r01n02", "booted"],
        ["r01n03", "booted"],
      ]),
      new Set([IMAGE, "rocky9"]),
    );
    expect(split.deployments).toEqual([
      { osimage: IMAGE, nodes: ["r01n01", "r01n03"] },
      { osimage: "rocky9", nodes: ["r01n02"] },
    ]);
  });
});

describe("rendering the Deployments", () => {
  const split = splitDeployments(
    [1, 2, 3, 4, 5].map((n) => node(n)),
    new Map([1, 2, 3, 4].map((n) => [`r01n0${n}`, "booted"])),
    new Set([IMAGE]),
  );
  const { runs, singles } = findRuns(split.entries);
  const cluster: ImportedCluster = {
    groups: [],
    osimages: [[IMAGE, { imagetype: "linux", provmethod: "install" }]],
    networks: [],
    policies: [],
    site: [],
    tableRows: [],
    runs,
    singles,
    deployments: split.deployments,
  };

  it("TypeScript: one adopting, protected Deployment over the compacted noderange, naming the Osimage", () => {
    const { source } = renderProgram(cluster);
    expect(source).toContain(
      'new xcat.Deployment("deploy-rhels9-compute", { nodes: "r01n[01-04]", osimage: rhels9Compute.name, adopt }, keep);',
    );
    // Only the node that has not booted keeps its provmethod.
    expect(source.match(/provmethod: rhels9Compute\.name/g)?.length).toBe(1);
  });

  it("YAML: the same Deployment, referring to the image's resource, protected and adopting", () => {
    const program = yaml.load(renderYamlProgram(cluster).source) as {
      resources: Record<string, { type: string; properties: Record<string, unknown>; options: unknown }>;
    };
    expect(program.resources["deploy-rhels9-compute"]).toEqual({
      type: "xcat:index:Deployment",
      properties: { nodes: "r01n[01-04]", osimage: "${rhels9-compute.name}", adopt: "${adopt}" },
      options: { protect: true },
    });
    const withProvmethod = Object.entries(program.resources).filter(
      ([, resource]) =>
        resource.type === "xcat:index:Node" &&
        (resource.properties.attributes as Record<string, unknown> | undefined)?.provmethod,
    );
    expect(withProvmethod.map(([key]) => key)).toEqual(["r01n05"]);
  });
});
