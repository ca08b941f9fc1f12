/**
 * The Pulumi YAML program `pulumi-xcat import --language yaml` writes (render-yaml.ts), parsed
 * back: every node of a run written out with its own values and overrides, references by
 * `${key.name}` with keys Pulumi YAML can name, passwords from config through `fn::secret` and
 * never in the text, `${` escaped, every resource adopted and protected. js-yaml is the copy
 * @pulumi/pulumi installs, as in ci-examples.test.ts.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Pulumi YAML expressions are written as text here.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { firstRunLines } from "../../src/cli/import/first-run";
import type { ImportedCluster } from "../../src/cli/import/render";
import { expandRun, renderYamlProgram } from "../../src/cli/import/render-yaml";
import { parseImportArgs } from "../../src/cli/import/run";
import { findRuns } from "../../src/cli/import/runs";

const yaml = createRequire(import.meta.url)("js-yaml") as { load(text: string): unknown };

interface Program {
  name: string;
  runtime: string;
  config?: Record<string, { type: string }>;
  variables: Record<string, unknown>;
  resources: Record<
    string,
    { type: string; properties: Record<string, unknown>; options: Record<string, unknown> }
  >;
}

const rack = ["01", "02", "03", "04"].map((n) => ({
  name: `r01n${n}`,
  groups: ["compute", "all"],
  attributes: {
    ip: `10.0.1.${Number(n)}`,
    provmethod: "rhels9.4-x86_64-netboot-compute",
    // r01n03 has a board of its own: another MAC, and no rack.
    ...(n === "03" ? { mac: "52:54:00:ff:00:03" } : { rack: "01" }),
  },
}));
const { runs, singles } = findRuns([
  ...rack,
  { name: "kvmhost1", groups: ["hosts"], attributes: { mgt: "ipmi", bmcpassword: "never-in-text" } },
  { name: "vm1", groups: ["vms"], attributes: { mgt: "kvm", vmhost: "kvmhost1" } },
]);
const cluster: ImportedCluster = {
  groups: [["compute", { mgt: "ipmi", bmcpassword: "group-secret-1" }]],
  osimages: [["rhels9.4-x86_64-netboot-compute", { imagetype: "linux", provmethod: "netboot" }]],
  networks: [["10_0_0_0-255_255_0_0", { net: "10.0.0.0", mask: "255.255.0.0", mgtifname: "eth0" }]],
  policies: [["6", { name: "root", rule: "allow" }]],
  site: [
    ["domain", "lab.example.org"],
    ["motd", "costs ${dollars}"],
  ],
  tableRows: [{ table: "routes", keys: { routename: "storage" }, values: { net: "10.2.0.0" } }],
  runs,
  singles,
};
const rendered = renderYamlProgram(cluster);
const program = yaml.load(rendered.source) as Program;

describe("pulumi-xcat import --language yaml", () => {
  it("takes --language yaml and refuses other languages", () => {
    expect(parseImportArgs(["--out", "x", "--language", "yaml"], {})).toMatchObject({ language: "yaml" });
    expect(parseImportArgs(["--out", "x"], {})).toMatchObject({ language: "typescript" });
    expect(() => parseImportArgs(["--out", "x", "--language", "python"], {})).toThrow(
      "--language: 'python' is not one of typescript, yaml",
    );
  });

  it("writes a YAML program for the native provider's types", () => {
    expect(program).toMatchObject({ name: "xcat-cluster", runtime: "yaml", variables: { adopt: true } });
    const types = Object.values(program.resources).map((resource) => resource.type);
    expect(new Set(types)).toEqual(
      new Set(
        ["GlobalConfAttribute", "Network", "Osimage", "Policy", "Group", "TableRow", "Node"].map(
          (kind) => `xcat:index:${kind}`,
        ),
      ),
    );
    for (const resource of Object.values(program.resources)) {
      expect(resource.options).toEqual({ protect: true });
      // GlobalConfAttribute has no adopt: setting a site value takes it over anyway.
      if (resource.type !== "xcat:index:GlobalConfAttribute")
        expect(resource.properties.adopt).toBe("${adopt}");
    }
  });

  it("writes every node of a run out, with its own values and overrides", () => {
    expect(runs).toHaveLength(1);
    expect(expandRun(runs[0] as (typeof runs)[number]).map((node) => node.name)).toEqual(
      rack.map((node) => node.name),
    );
    const r01n02 = program.resources.r01n02;
    expect(r01n02?.properties).toEqual({
      name: "r01n02",
      groups: ["compute", "all"],
      attributes: { ip: "10.0.1.2", provmethod: "${rhels9-4-x86_64-netboot-compute.name}", rack: "01" },
      adopt: "${adopt}",
    });
    const r01n03 = program.resources.r01n03?.properties.attributes;
    expect(r01n03).toEqual({
      ip: "10.0.1.3",
      provmethod: "${rhels9-4-x86_64-netboot-compute.name}",
      mac: "52:54:00:ff:00:03",
    });
  });

  it("names objects whose names hold dots by keys Pulumi YAML can refer to, with the xCAT name set", () => {
    const image = program.resources["rhels9-4-x86_64-netboot-compute"];
    expect(image?.properties.name).toBe("rhels9.4-x86_64-netboot-compute");
    expect(program.resources["10_0_0_0-255_255_0_0"]).toBeUndefined();
    expect(program.resources["network-10_0_0_0-255_255_0_0"]?.properties).toMatchObject({
      name: "10_0_0_0-255_255_0_0",
      net: "10.0.0.0",
      attributes: { mgtifname: "eth0" },
    });
    expect(program.resources.vm1?.properties.attributes).toEqual({ mgt: "kvm", vmhost: "${kvmhost1.name}" });
  });

  it("takes passwords from secret config through fn::secret, never writing them", () => {
    expect(rendered.source).not.toContain("never-in-text");
    expect(rendered.source).not.toContain("group-secret-1");
    expect(rendered.secrets).toEqual([
      { key: "compute-bmcpassword", holds: "bmcpassword of compute" },
      { key: "kvmhost1-bmcpassword", holds: "bmcpassword of kvmhost1" },
    ]);
    expect(program.config).toEqual({
      "compute-bmcpassword": { type: "string" },
      "kvmhost1-bmcpassword": { type: "string" },
    });
    expect(program.resources.kvmhost1?.properties.attributes).toEqual({
      mgt: "ipmi",
      bmcpassword: { "fn::secret": "${kvmhost1-bmcpassword}" },
    });
  });

  it("escapes ${ in values, so Pulumi YAML keeps them as text", () => {
    expect(program.resources["site-motd"]?.properties).toEqual({ name: "motd", value: "costs $${dollars}" });
    expect(program.resources["routes-storage"]?.properties).toMatchObject({
      table: "routes",
      keys: { routename: "storage" },
      values: { net: "10.2.0.0" },
    });
  });

  it("tells the first run to install the plugin, not the TypeScript project's dependencies", () => {
    const lines = firstRunLines(
      "/tmp/c",
      { url: "https://mn1/xcatws" },
      rendered.secrets,
      "yaml",
      "file:/opt/px",
    );
    // Beside Pulumi.yaml, found through its plugins section: no PATH lookup, no ambient warning.
    expect(lines).toContain(
      "    npm install file:/opt/px   # beside Pulumi.yaml, whose plugins section names its plugin/ folder",
    );
    expect(lines).not.toContain("    npm install");
    expect(lines).toContain(
      "    pulumi config set --secret kvmhost1-bmcpassword   # asks for it: bmcpassword of kvmhost1",
    );
  });
});
