/**
 * What the stack's state says of each node, for the view: which resources hold it (Node,
 * NodeSet) or act on it (Deployment, PowerState), the image a Deployment wants on it, and the
 * attributes the last refresh found changed by hand.
 *
 * Read from `pulumi stack export` without `--show-secrets` (the view needs no secret of the
 * state; a secret value stays a ciphertext and is never compared in plain text). Drift: a
 * refresh writes what the management node holds into a resource's outputs and leaves its inputs
 * (the program's) alone, so an attribute whose output differs from its input was changed outside
 * the program when the stack was last refreshed (or updated). Only resources on the stack's own
 * management node count (stack-resources.ts): the view draws that one; the others are counted so
 * the page can say they are not drawn. Pure.
 */
import { expandNoderange, type NoderangeContext } from "../../contract/noderange";
import { kindOf, managementNodeRoute, nameOfUrn, type ResourceView } from "../stack-resources";
import type { NodeResource } from "./node-state";

interface StateResource extends ResourceView {
  readonly id?: string;
}

export interface StackNodes {
  /** Per node name: the resources that hold or act on it. */
  readonly resources: ReadonlyMap<string, readonly NodeResource[]>;
  /** Per node name: the image its Deployment wants. */
  readonly wantedImages: ReadonlyMap<string, { readonly osimage: string; readonly deployment: string }>;
  /** Per node name: attributes whose refreshed value differs from the program's. */
  readonly drift: ReadonlyMap<string, readonly string[]>;
  /** Resources of pulumi-xcat on another management node (a provider or `connection` of their own): not drawn. */
  readonly elsewhere: number;
}

/** The resources of a `pulumi stack export` JSON (an empty list for an empty or new stack). */
export function stateResources(exported: unknown): StateResource[] {
  const resources = (exported as { deployment?: { resources?: unknown } } | null)?.deployment?.resources;
  return Array.isArray(resources) ? (resources as StateResource[]) : [];
}

const ACTING_ON_NODES = new Set(["xcat:Deployment", "xcat:PowerState", "xcat:NodeSet"]);

function nodesInput(inputs: Record<string, unknown> | undefined): string | undefined {
  const nodes = inputs?.nodes;
  if (typeof nodes === "string") return nodes;
  if (Array.isArray(nodes) && nodes.every((item) => typeof item === "string")) return nodes.join(",");
  return undefined;
}

/** Attribute names whose output differs from the input (values compared as JSON, so ciphertexts too). */
function driftedAttributes(resource: StateResource): string[] {
  const inputs = resource.inputs ?? {};
  const outputs = resource.outputs ?? {};
  const drifted: string[] = [];
  const given = inputs.attributes;
  const found = outputs.attributes;
  if (typeof given === "object" && given !== null && typeof found === "object" && found !== null) {
    for (const [key, value] of Object.entries(given as Record<string, unknown>)) {
      const now = (found as Record<string, unknown>)[key];
      if (JSON.stringify(now) !== JSON.stringify(value)) drifted.push(key);
    }
  }
  if (inputs.groups !== undefined && outputs.groups !== undefined) {
    if (JSON.stringify(inputs.groups) !== JSON.stringify(outputs.groups)) drifted.push("groups");
  }
  return drifted.sort();
}

/** The stack's view of its nodes; `context` expands noderanges and groups against the management node. */
export function stackNodes(exported: unknown, context: NoderangeContext): StackNodes {
  const resources = new Map<string, NodeResource[]>();
  const wantedImages = new Map<string, { osimage: string; deployment: string }>();
  const drift = new Map<string, string[]>();
  let elsewhere = 0;
  const add = (node: string, resource: NodeResource) => {
    const list = resources.get(node) ?? [];
    list.push(resource);
    resources.set(node, list);
  };
  for (const resource of stateResources(exported)) {
    const kind = kindOf(resource);
    if (!/^xcat:[A-Za-z]+$/.test(kind)) continue;
    if (managementNodeRoute(resource).via !== "stack") {
      elsewhere++;
      continue;
    }
    const name = resource.urn ? nameOfUrn(resource.urn) : (resource.id ?? "?");
    if (kind === "xcat:Node") {
      const node = resource.id ?? (resource.outputs?.name as string | undefined);
      if (typeof node !== "string" || node === "") continue;
      add(node, { kind, name });
      const drifted = driftedAttributes(resource);
      if (drifted.length > 0) drift.set(node, drifted);
      continue;
    }
    if (!ACTING_ON_NODES.has(kind)) continue;
    const range = nodesInput(resource.inputs);
    if (range === undefined) continue;
    const nodes = expandNoderange(range, context);
    for (const node of nodes) add(node, { kind, name });
    const osimage = resource.inputs?.osimage;
    if (kind === "xcat:Deployment" && typeof osimage === "string" && osimage !== "") {
      for (const node of nodes) wantedImages.set(node, { osimage, deployment: name });
    }
  }
  return { resources, wantedImages, drift, elsewhere };
}
