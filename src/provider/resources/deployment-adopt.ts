/**
 * A Deployment with `adopt: true` takes over nodes that already run its image (issue #36 item 5):
 * an xCAT admin who imports a cluster has nodes that booted their image long ago, and a new
 * Deployment of that image must not re-image them. On create it reads the nodes' states once (the
 * backend's readStates: on xCAT one `GET /nodes/<range>/attrs/provmethod,status,statustime`) and
 * records every node that booted the image as done; only the others are deployed. Preview shows
 * the split as `adoptChanges` ("takesOver", "deploys") before anything is touched.
 *
 * On xCAT a node runs an image when its nodetype.provmethod names it (nodeset writes it,
 * destiny.pm:294-319) and its status is `booted` (the post-install script reports it,
 * xcatinstallpost:140); on Confluent when deployment.profile is the profile with none pending.
 */
import type { NodeState } from "../deploy";
import { compactNoderange } from "../node-batches";
import type { DeploymentBackend } from "./deployment";

/** The nodes a Deployment takes over and those it still deploys, from one read of their states. */
export interface Takeover {
  /** Nodes that booted the image: recorded as done, never touched. */
  readonly taken: Record<string, NodeState>;
  /** The nodes still to deploy, in the order given. */
  readonly rest: readonly string[];
}

/** Reads the states of `names` and splits them into the nodes running `osimage` and the rest. */
export async function takeoverOf<Client>(
  backend: DeploymentBackend<Client>,
  client: Client,
  names: readonly string[],
  osimage: string,
): Promise<Takeover> {
  if (names.length === 0) return { taken: {}, rest: [] };
  // No recorded states: a node counts as done only when the server says it booted the image now.
  const found = await backend.readStates(client, names, { osimage, nodeStates: {} });
  const taken: Record<string, NodeState> = {};
  const rest: string[] = [];
  for (const node of names) {
    const state = found?.nodeStates[node];
    if (state?.deployed === true && state.osimage === osimage) taken[node] = state;
    else rest.push(node);
  }
  return { taken, rest };
}

/** The progress line and preview text of a takeover, e.g. "takes over 14 node(s) that run img; deploys 2". */
export function takeoverLine(takeover: Takeover, osimage: string): string {
  const taken = Object.keys(takeover.taken);
  const takes =
    taken.length === 0
      ? `takes over no node: none runs ${osimage}`
      : `takes over ${taken.length} node(s) that run ${osimage} (${compactNoderange(taken)})`;
  const deploys =
    takeover.rest.length === 0
      ? "deploys none"
      : `deploys ${takeover.rest.length} (${compactNoderange(takeover.rest)})`;
  return `${takes}; ${deploys}`;
}

/**
 * What preview shows for a Deployment that adopts: the nodes it takes over and those it deploys.
 * Nodes the program has yet to define cannot be read; they are deployed, and preview says so.
 */
export async function takeoverPreview<Client>(
  backend: DeploymentBackend<Client>,
  client: Client,
  nodes: string | readonly string[],
  osimage: string,
): Promise<Record<string, string> | undefined> {
  let names: string[];
  try {
    names = await backend.expandNodes(client, nodes);
  } catch {
    return { takesOver: "not known yet: the nodes are not on the server; up reads them before deploying" };
  }
  const takeover = await takeoverOf(backend, client, names, osimage);
  const taken = Object.keys(takeover.taken);
  return {
    takesOver:
      taken.length === 0 ? `no node runs ${osimage}` : `${taken.length} node(s): ${compactNoderange(taken)}`,
    deploys:
      takeover.rest.length === 0
        ? "none"
        : `${takeover.rest.length} node(s): ${compactNoderange(takeover.rest)}`,
  };
}
