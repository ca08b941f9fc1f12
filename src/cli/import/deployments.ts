/**
 * Import leaves a node's image to a Deployment (issue #36 item 5). A node's `provmethod` is what
 * `nodeset <node> osimage=<img>` wrote (destiny.pm:294-319, docs/provisioning.md), not a value the
 * admin set on the node: a Node that declared it would pin the image, so a later Deployment of a
 * new image would be fought (refresh shows drift, `up` writes the old image back).
 *
 * So for every imported image that booted nodes' provmethod names, the program gets one
 * `Deployment` of it over those nodes with `adopt: true` (it takes them over as done, with no
 * write), and the nodes no longer declare provmethod. A node that has not booted its image
 * (installing, failed, powered off) keeps its provmethod: in a Deployment the first `up` would
 * deploy it (nodeset, rsetboot, rpower boot), and an import's first `up` writes nothing. It is
 * reported under "Worth a look". A provmethod naming no imported image stays on the node too.
 */
import { compactNoderange } from "../../provider/node-batches";
import type { Finding } from "./findings";
import type { NodeEntry } from "./runs";

/** One Deployment the program declares: an image and the nodes that booted it. */
export interface ImportedDeployment {
  readonly osimage: string;
  /** The nodes, in the order imported. */
  readonly nodes: readonly string[];
}

/** The nodes with provmethod moved to Deployments, the Deployments, and the nodes left as they were. */
export interface DeploymentSplit {
  readonly entries: NodeEntry[];
  readonly deployments: ImportedDeployment[];
  readonly findings: Finding[];
}

/** The status xCAT records once a node's post-install script reports it up (xcatinstallpost:140). */
const BOOTED = "booted";

/**
 * Moves each booted node's own provmethod naming an imported image into that image's Deployment.
 * @param statuses each node's `status` as lsdef reports it (absent: none recorded)
 * @param images the names of the OS images the program declares
 */
export function splitDeployments(
  entries: readonly NodeEntry[],
  statuses: ReadonlyMap<string, string | undefined>,
  images: ReadonlySet<string>,
): DeploymentSplit {
  const byImage = new Map<string, string[]>();
  const notBooted = new Map<string, string[]>();
  const out = entries.map((entry) => {
    const { provmethod, ...rest } = entry.attributes;
    if (provmethod === undefined || !images.has(provmethod)) return entry;
    const status = statuses.get(entry.name) ?? "";
    if (status !== BOOTED) {
      notBooted.set(provmethod, [
        ...(notBooted.get(provmethod) ?? []),
        `${entry.name} (${status || "no status"})`,
      ]);
      return entry;
    }
    byImage.set(provmethod, [...(byImage.get(provmethod) ?? []), entry.name]);
    return { ...entry, attributes: rest };
  });
  const deployments = [...byImage].map(([osimage, nodes]) => ({ osimage, nodes }));
  const findings: Finding[] = [...notBooted].map(([osimage, nodes]) => ({
    kind: "not-booted",
    text:
      `${nodes.length} node(s) name ${osimage} as their image but have not booted it: ${listed(nodes)}. ` +
      `They keep provmethod on the Node, so the first up deploys nothing; once they run ${osimage}, ` +
      `move them into ${deploymentName(osimage)} (it would deploy any node that has not booted it).`,
  }));
  return { entries: out, deployments, findings };
}

/** The resource name of an image's Deployment in the generated program. */
export function deploymentName(osimage: string): string {
  return `deploy-${osimage}`;
}

/** A deployment's nodes as one noderange, as an admin would write it (`r01n[01-16]`). */
export function deploymentRange(deployment: ImportedDeployment): string {
  return compactNoderange(deployment.nodes);
}

function listed(nodes: readonly string[]): string {
  return nodes.length > 10
    ? `${nodes.slice(0, 10).join(", ")} and ${nodes.length - 10} more`
    : nodes.join(", ");
}
