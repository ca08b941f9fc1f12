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
import { expandNoderange } from "../../contract/noderange";
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

/** `14 node(s): r01n[01-14]`, the form takeoverPreview gives a list of nodes in. */
const NODES_TEXT = /^(\d+) node\(s\): (\S+)$/;

const namesOnly = { isNode: () => false, groupMembers: () => undefined };

/**
 * The nodes a preview's `adoptChanges` says are taken over and deployed, read back from the text
 * takeoverPreview wrote (review counts re-imaged nodes by it); undefined when the preview could
 * not tell (nodes not on the server yet), and then every node counts as deployed.
 *
 * @example
 * takeoverSplitOf({ takesOver: "2 node(s): n[1-2]", deploys: "none" }) // { takesOver: ["n1", "n2"], deploys: [] }
 */
export function takeoverSplitOf(
  adoptChanges: Readonly<Record<string, unknown>>,
): { takesOver: string[]; deploys: string[] } | undefined {
  const nodes = (text: unknown): string[] | undefined => {
    if (text === "none" || (typeof text === "string" && text.startsWith("no node runs "))) return [];
    const match = typeof text === "string" ? NODES_TEXT.exec(text) : null;
    if (!match) return undefined;
    const names = expandNoderange(match[2] ?? "", namesOnly);
    return names.length === Number(match[1]) ? names : undefined;
  };
  const takesOver = nodes(adoptChanges.takesOver);
  const deploys = nodes(adoptChanges.deploys);
  return takesOver && deploys ? { takesOver, deploys } : undefined;
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
