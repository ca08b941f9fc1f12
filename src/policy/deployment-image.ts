/**
 * A Deployment installs an image the stack declares: a misspelt or forgotten `osimage` otherwise
 * shows up only when nodeset refuses it halfway through a rack. Images made outside the stack
 * (copycds on the management node, another stack) are named in the rule's configuration.
 */
import { type ClusterView, describeResource, type Violation } from "./cluster-view";

export interface DeploymentImageConfig {
  /** Images the stack uses without declaring them as Osimage resources. */
  readonly externalImages?: readonly string[];
}

/** Deployments whose `osimage` is neither an Osimage of the stack nor listed as external. */
export function undeclaredDeploymentImages(view: ClusterView, config: DeploymentImageConfig): Violation[] {
  const external = new Set(config.externalImages ?? []);
  const violations: Violation[] = [];
  for (const deployment of view.deployments) {
    const image = deployment.osimage;
    if (image === undefined || image === "" || view.osimages.has(image) || external.has(image)) continue;
    violations.push({
      message:
        `${describeResource(deployment)} installs osimage ${image}, which no Osimage resource of the stack declares. ` +
        `Declare it (new xcat.Osimage("${image}", …)), or, when it is made outside this stack, list it in the policy config: ` +
        `{"deployment-image-declared": {"externalImages": ["${image}"]}} (pulumi preview --policy-pack-config FILE).`,
      urn: deployment.urn,
    });
  }
  return violations;
}
