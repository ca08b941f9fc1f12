/**
 * The policy pack's rules as @pulumi/policy stack policies: each turns the stack's resources into a
 * {@link ClusterView} and reports what one rule finds. Mandatory unless the policy config says
 * otherwise (`{"unique-node-ip": "advisory"}` or `{"unique-node-ip": {"enforcementLevel": "disabled"}}`,
 * given with `pulumi preview --policy-pack-config FILE`).
 */
import type { PolicyResource, ReportViolation, StackValidationPolicy } from "@pulumi/policy";
import { type ClusterView, clusterView, type StackResource, UNKNOWN, type Violation } from "./cluster-view";
import { type DeploymentImageConfig, undeclaredDeploymentImages } from "./deployment-image";
import { byManagementNode, type PlacedResource } from "./management-node";
import { nodesDefinedTwice } from "./node-defined-once";
import { nodeGroupTypos } from "./node-group-typo";
import { nodesOutsideNetworks } from "./node-in-network";
import { nodesInTwoDeployments, nodesInTwoPowerStates } from "./one-owner-per-node";
import { duplicateAddresses } from "./unique-addresses";

/**
 * A plain copy of a resource's props. @pulumi/policy hands them behind a proxy that throws on any
 * value unknown during preview, which would stop a whole-stack rule at the first node whose
 * address comes from another resource; the copy holds {@link UNKNOWN} there instead.
 */
export function plainProps(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value))
    return Array.from({ length: value.length }, (_, index) => readKnown(value, index));
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = readKnown(value as Record<string, unknown>, key);
  return copy;
}

function readKnown(container: Record<string | number, unknown> | unknown[], key: string | number): unknown {
  try {
    return plainProps((container as Record<string | number, unknown>)[key]);
  } catch (error) {
    if (error instanceof Error && error.constructor.name === "UnknownValueError") return UNKNOWN;
    throw error;
  }
}

function stackResources(resources: readonly PolicyResource[]): Array<StackResource & PlacedResource> {
  return resources.map((resource) => ({
    urn: resource.urn,
    name: resource.name,
    type: resource.type,
    props: plainProps(resource.props) as Record<string, unknown>,
    ...(resource.provider
      ? {
          provider: {
            urn: resource.provider.urn,
            props: plainProps(resource.provider.props) as Record<string, unknown>,
          },
        }
      : {}),
  }));
}

function stackPolicy(
  name: string,
  description: string,
  rule: (view: ClusterView, config: DeploymentImageConfig) => Violation[],
  configSchema?: StackValidationPolicy["configSchema"],
  enforcementLevel: StackValidationPolicy["enforcementLevel"] = "mandatory",
): StackValidationPolicy {
  return {
    name,
    description,
    enforcementLevel,
    ...(configSchema ? { configSchema } : {}),
    validateStack: (args, reportViolation: ReportViolation) => {
      // Each management node is its own cluster (management-node.ts): the rules compare within one.
      for (const resources of byManagementNode(stackResources(args.resources))) {
        const view = clusterView(resources);
        for (const violation of rule(view, args.getConfig<DeploymentImageConfig>())) {
          reportViolation(violation.message, violation.urn);
        }
      }
    },
  };
}

export const policies: readonly StackValidationPolicy[] = [
  stackPolicy(
    "unique-node-ip",
    "No two nodes of the stack (Nodes and NodeSet rows) share an ip (own, the set's, inherited or from a group's regex).",
    (view) => duplicateAddresses(view, "ip"),
  ),
  stackPolicy(
    "unique-node-mac",
    "No two nodes of the stack share a MAC address (each |-separated entry, case-blind; own, inherited or from a group's regex).",
    (view) => duplicateAddresses(view, "mac"),
  ),
  stackPolicy(
    "unique-node-bmc",
    "No two nodes of the stack share a BMC address (own, inherited or from a group's regex).",
    (view) => duplicateAddresses(view, "bmc"),
  ),
  stackPolicy(
    "node-ip-in-network",
    "A node's ip (own, inherited or from a group's regex) lies in one of the stack's Networks (when the stack declares any).",
    nodesOutsideNetworks,
  ),
  stackPolicy(
    "deployment-image-declared",
    "A Deployment's osimage is an Osimage of the stack or listed in externalImages.",
    undeclaredDeploymentImages,
    {
      properties: {
        externalImages: {
          type: "array",
          items: { type: "string" },
          default: [],
          description: "Images made outside this stack that its Deployments may install.",
        },
      },
    },
  ),
  stackPolicy(
    "one-definition-per-node",
    "No node is held by two resources (two NodeSets' rows, a NodeSet and a Node, or two Nodes).",
    nodesDefinedTwice,
  ),
  stackPolicy("one-deployment-per-node", "No node is covered by two Deployments.", nodesInTwoDeployments),
  stackPolicy("one-power-state-per-node", "No node is covered by two PowerStates.", nodesInTwoPowerStates),
  // Advisory: a group the stack does not define may be defined on the management node by hand.
  stackPolicy(
    "node-group-defined",
    "A node's group that no Group of the stack defines is not a near-miss of one that does (a typo).",
    nodeGroupTypos,
    undefined,
    "advisory",
  ),
];
