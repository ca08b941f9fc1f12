import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  invalidResources,
  isLiteral,
  otherResourceFailures,
  stackOfUrn,
  stackProviderOf,
  yamlProgramResources,
} from "../../src/native/yaml-program-check";

const XCAT = { backend: "xcat", confluentOmit: [] } as const;

const fourMistakes = resolve(import.meta.dirname, "../e2e/programs/all-errors-yaml");

function program(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "yaml-program-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe("the YAML program's other invalid resources", () => {
  it("finds the three others when the engine stops at the first, in the program's order", () => {
    const resources = yamlProgramResources(fourMistakes);
    expect(resources?.map((resource) => resource.name)).toEqual(["cn01", "cn02", "mgmt", "compute", "cn03"]);
    const others = invalidResources(
      resources ?? [],
      { type: "xcat:index:Node", name: "cn01" },
      { stack: XCAT },
    );
    expect(others.map((other) => `${other.type} ${other.name}`)).toEqual([
      "xcat:index:Node cn02",
      "xcat:index:Network mgmt",
      "xcat:index:Group compute",
    ]);
    const reasons = otherResourceFailures(others).map((failure) => failure.reason);
    expect(reasons[0]).toMatch(
      /^also invalid in this program: xcat:index:Node resource 'cn02': property attributes has a problem: .*ip '10\.0\.0\.300' is not an IP address/,
    );
    expect(reasons.join("\n")).toMatch(
      /xcat:index:Group resource 'compute'.*'membrs' is not a group attribute/,
    );
  });

  it("leaves expressions, unknown backends and other runtimes to the engine and the provider", () => {
    expect(isLiteral({ ip: "10.0.0.1", groups: ["all"] })).toBe(true);
    expect(isLiteral({ ip: "${base}.1" })).toBe(false);
    expect(isLiteral({ password: { "fn::secret": "x" } })).toBe(false);
    const dir = program({
      "Pulumi.yaml": [
        "name: p",
        "runtime: yaml",
        "resources:",
        "  mnB: { type: 'pulumi:providers:xcat', properties: { url: 'https://mn-b/xcatws' } }",
        "  cf: { type: 'pulumi:providers:xcat', properties: { backend: '${backend}' } }",
        "  a: { type: 'xcat:index:Node', properties: { groups: [all], attributes: { bcm: x } }, options: { provider: '${mnB}' } }",
        "  b: { type: 'xcat:index:Node', properties: { groups: [all], attributes: { bcm: x } }, options: { provider: '${cf}' } }",
        "  c: { type: 'xcat:index:Node', properties: { groups: [all], attributes: { ip: '${base}' } } }",
        "  d: { type: 'xcat:index:Node', properties: { groups: [all], attributes: { bcm: x } } }",
      ].join("\n"),
    });
    const resources = yamlProgramResources(dir) ?? [];
    const except = { type: "xcat:index:Node", name: "none" };
    // An explicit provider process does not know the default provider's backend: d is skipped.
    expect(invalidResources(resources, except, { stack: undefined }).map((r) => r.name)).toEqual(["a"]);
    expect(invalidResources(resources, except, { stack: XCAT }).map((r) => r.name)).toEqual(["a", "d"]);
    expect(yamlProgramResources(program({ "Pulumi.yaml": "name: p\nruntime: nodejs\n" }))).toBeUndefined();
    expect(yamlProgramResources(program({}))).toBeUndefined();
  });

  it("reads Main.yaml of the project's main folder", () => {
    const dir = program({
      "Pulumi.yaml": "name: p\nruntime: yaml\nmain: infra/\n",
      "infra/Main.yaml":
        "resources:\n  n: { type: 'xcat:index:Node', properties: { groups: [all], attributes: { bcm: x } } }\n",
    });
    const others = invalidResources(
      yamlProgramResources(dir) ?? [],
      { type: "x", name: "y" },
      { stack: XCAT },
    );
    expect(others.map((other) => other.name)).toEqual(["n"]);
  });
});

describe("the default provider's backend, read by an explicit provider's process", () => {
  const urn = "urn:pulumi:dev::p::xcat:index:Node::n1";

  it("is the stack config's xcat:backend, else the project's default, else XCAT_BACKEND, else xcat", () => {
    expect(stackOfUrn(urn)).toBe("dev");
    const onStack = program({
      "Pulumi.yaml": "name: p\nruntime: yaml\n",
      "Pulumi.dev.yaml": "config:\n  xcat:backend: confluent\n  xcat:url: https://cf:4005\n",
    });
    expect(stackProviderOf(onStack, "dev", { XCAT_BACKEND: "xcat" })).toEqual({
      backend: "confluent",
      confluentOmit: [],
    });
    const projectDefault = program({
      "Pulumi.yaml": "name: p\nruntime: yaml\nconfig:\n  xcat:backend:\n    value: confluent\n",
    });
    expect(stackProviderOf(projectDefault, "dev", {})?.backend).toBe("confluent");
    const none = program({ "Pulumi.yaml": "name: p\nruntime: yaml\n" });
    expect(
      stackProviderOf(none, "dev", { XCAT_BACKEND: "confluent", XCAT_CONFLUENT_OMIT: "netboot" }),
    ).toEqual({
      backend: "confluent",
      confluentOmit: ["netboot"],
    });
    expect(stackProviderOf(none, "dev", {})).toEqual(XCAT);
    const listed = program({
      "Pulumi.yaml": "name: p\nruntime: yaml\n",
      "Pulumi.dev.yaml": "config:\n  xcat:backend: confluent\n  xcat:confluentOmit:\n    - postscripts\n",
    });
    expect(stackProviderOf(listed, "dev", {})).toEqual({
      backend: "confluent",
      confluentOmit: ["postscripts"],
    });
  });

  it("checks each resource as its own provider would: its backend, its confluentOmit, its advice", () => {
    const dir = program({
      "Pulumi.yaml": [
        "name: p",
        "runtime: yaml",
        "resources:",
        "  cf: { type: 'pulumi:providers:xcat', properties: { backend: confluent, confluentOmit: [netboot] } }",
        "  c1: { type: 'xcat:index:Node', properties: { groups: [all], attributes: { netboot: xnba, postscripts: s } }, options: { provider: '${cf}' } }",
        "  d1: { type: 'xcat:index:Node', properties: { groups: [all], attributes: { postbootscripts: s } } }",
      ].join("\n"),
    });
    const resources = yamlProgramResources(dir) ?? [];
    const others = invalidResources(
      resources,
      { type: "x", name: "y" },
      { stack: { backend: "confluent", confluentOmit: [] } },
    );
    const reasons = otherResourceFailures(others).map((failure) => failure.reason);
    // netboot is left out by cf's confluentOmit: only postscripts is refused, with cf's advice.
    expect(reasons).toHaveLength(2);
    expect(reasons[0]).toMatch(/resource 'c1'.*'postscripts' has no counterpart on Confluent.*provider 'cf'/);
    expect(reasons[0]).not.toMatch(/netboot/);
    expect(reasons[1]).toMatch(
      /resource 'd1'.*'postbootscripts' has no counterpart.*pulumi config set xcat:confluentOmit/,
    );
  });

  it("is unknown when the files cannot say: an ESC environment, an encrypted value", () => {
    const esc = program({
      "Pulumi.yaml": "name: p\nruntime: yaml\n",
      "Pulumi.dev.yaml": "environment:\n  - site/cluster\n",
    });
    expect(stackProviderOf(esc, "dev", {})).toBeUndefined();
    const encrypted = program({
      "Pulumi.yaml": "name: p\nruntime: yaml\n",
      "Pulumi.dev.yaml": "config:\n  xcat:backend:\n    secure: AAABAKz\n",
    });
    expect(stackProviderOf(encrypted, "dev", {})).toBeUndefined();
  });
});
