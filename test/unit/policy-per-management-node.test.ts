/**
 * The policy pack compares per management node (issue #36 N8): a node of the same name or address
 * on two management nodes is no clash; on one it still is. Through the policies' own
 * validateStack, with resources shaped as @pulumi/policy hands them (a `provider` for each).
 */
import type { StackValidationArgs, StackValidationPolicy } from "@pulumi/policy";
import { describe, expect, it } from "vitest";
import { byManagementNode, managementNodeOf, STACK_SERVER } from "../../src/policy/management-node";
import { policies } from "../../src/policy/policies";

const PROVIDER_TYPE = "pulumi:providers:xcat";
const provider = (name: string, url: string) => ({
  type: PROVIDER_TYPE,
  name,
  urn: `urn:pulumi:lab::mns::${PROVIDER_TYPE}::${name}`,
  props: { url, backend: "xcat" },
});
const yamlNode = (name: string, ip: string, on: ReturnType<typeof provider>) => ({
  urn: `urn:pulumi:lab::mns::xcat:index:Node::${name}`,
  name,
  type: "xcat:index:Node",
  props: { name: "cn001", groups: ["compute"], attributes: { ip, bmc: "127.0.10.1" } },
  provider: on,
});

function violations(resources: ReturnType<typeof yamlNode>[]): string[] {
  const found: string[] = [];
  const args = { resources, getConfig: () => ({}) } as unknown as StackValidationArgs;
  for (const policy of policies as StackValidationPolicy[]) {
    const validate = policy.validateStack as (a: StackValidationArgs, report: (m: string) => void) => void;
    validate(args, (message) => found.push(`${policy.name}: ${message}`));
  }
  return found;
}

describe("the policy pack on a stack of two management nodes", () => {
  const mnA = provider("mnA", "https://mn-a.example/xcatws");
  const mnB = provider("mnB", "https://mn-b.example");

  it("reports nothing for one node name, ip and bmc used once on each", () => {
    expect(violations([yamlNode("a-cn001", "10.0.0.1", mnA), yamlNode("b-cn001", "10.0.0.1", mnB)])).toEqual(
      [],
    );
  });

  it("still reports the clash of two nodes on one management node", () => {
    const found = violations([yamlNode("a-cn001", "10.0.0.1", mnA), yamlNode("a-cn002", "10.0.0.1", mnA)]);
    expect(found.some((line) => line.startsWith("unique-node-ip: ip 10.0.0.1 is given to both"))).toBe(true);
    expect(found.some((line) => line.startsWith("unique-node-bmc:"))).toBe(true);
  });

  it("takes two providers naming one server (the same url written two ways) as one management node", () => {
    const again = provider("mnA2", "https://mn-a.example/");
    expect(managementNodeOf(yamlNode("x", "10.0.0.1", again))).toBe(
      managementNodeOf(yamlNode("y", "10.0.0.1", mnA)),
    );
    const found = violations([yamlNode("a-cn001", "10.0.0.1", mnA), yamlNode("a2-cn001", "10.0.0.1", again)]);
    expect(found.some((line) => line.startsWith("unique-node-ip:"))).toBe(true);
  });

  it("keys a TypeScript resource by its connection, the default provider by the stack", () => {
    const stackDefault = { urn: "urn:pulumi:lab::mns::pulumi:providers:pulumi-nodejs::default", props: {} };
    expect(managementNodeOf({ props: {}, provider: stackDefault })).toBe(STACK_SERVER);
    expect(
      managementNodeOf({ props: { connection: { url: "https://mn-b.example" } }, provider: stackDefault }),
    ).toBe(managementNodeOf({ props: {}, provider: mnB }));
    expect(byManagementNode([{ props: {} }, { props: {}, provider: mnA }, { props: {} }])).toHaveLength(2);
  });
});
