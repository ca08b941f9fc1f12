/**
 * What the stack's state says of each node, for the view: which resources hold it (Node,
 * NodeSet) or act on it (Deployment, PowerState), the image a Deployment wants on it, and the
 * values a Node resource recorded for its attributes when the stack last wrote it (an `up` or a
 * `refresh`), which view-model.ts compares with what the management node holds now.
 *
 * Read from `pulumi stack export` without `--show-secrets` (the view needs no secret of the
 * state; secret attributes sit apart in `secretAttributes` and are not compared). Why recorded
 * values and not "inputs vs outputs": a refresh writes what the management node holds into a Node's
 * inputs as well as its outputs (the provider's read returns both, attribute-object.ts
 * inputsFromReport), so after a refresh the state no longer holds the program's values; only a
 * preview (what `pulumi-xcat drift` runs) knows them. Only resources on the server drawn count
 * (stack-resources.ts managementNodeKey): the others are counted so the page can say they are not
 * drawn there. Pure.
 */
import { expandNoderange, type NoderangeContext } from "../../contract/noderange";
import { nodeValues } from "../../provider/node-set-plan";
import {
  kindOf,
  managementNodeKey,
  managementNodeRoute,
  nameOfUrn,
  type ResourceView,
  STACK_MANAGEMENT_NODE,
} from "../stack-resources";
import type { NodeResource } from "./node-state";

interface StateResource extends ResourceView {
  readonly id?: string;
}

export interface StackNodes {
  /** Per node name: the resources that hold or act on it. */
  readonly resources: ReadonlyMap<string, readonly NodeResource[]>;
  /** Per node name: the image its Deployment wants. */
  readonly wantedImages: ReadonlyMap<string, { readonly osimage: string; readonly deployment: string }>;
  /** Per node name: the attribute values its Node resource recorded (outputs `attributes`, and `groups`). */
  readonly recorded: ReadonlyMap<string, Readonly<Record<string, string>>>;
  /** Resources of pulumi-xcat on another server than `keys` say (a provider or `connection` of their own). */
  readonly elsewhere: number;
}

/**
 * The resources of a `pulumi stack export` JSON (an empty list for an empty or new stack), then
 * the resources of the create and update operations under way (see the file's comment).
 */
export function stateResources(exported: unknown): StateResource[] {
  const deployment = (
    exported as { deployment?: { resources?: unknown; pending_operations?: unknown } } | null
  )?.deployment;
  const resources = Array.isArray(deployment?.resources) ? (deployment.resources as StateResource[]) : [];
  const pending = Array.isArray(deployment?.pending_operations)
    ? (deployment.pending_operations as Array<{ resource?: StateResource; type?: string }>)
        .filter((operation) => operation.type === "creating" || operation.type === "updating")
        .flatMap((operation) => (operation.resource ? [operation.resource] : []))
    : [];
  return [...resources, ...pending];
}

const ACTING_ON_NODES = new Set(["xcat:Deployment", "xcat:PowerState", "xcat:NodeSet"]);

function nodesInput(inputs: Record<string, unknown> | undefined): string | undefined {
  const nodes = inputs?.nodes;
  if (typeof nodes === "string") return nodes;
  if (Array.isArray(nodes) && nodes.every((item) => typeof item === "string")) return nodes.join(",");
  return undefined;
}

/** The plain attributes a Node resource recorded, `groups` as xCAT writes it; secret ones are never among them. */
function recordedAttributes(resource: StateResource): Record<string, string> {
  const outputs = resource.outputs ?? {};
  const recorded: Record<string, string> = {};
  const attributes = outputs.attributes;
  if (typeof attributes === "object" && attributes !== null) {
    for (const [key, value] of Object.entries(attributes as Record<string, unknown>)) {
      if (typeof value === "string") recorded[key] = value;
    }
  }
  const groups = outputs.groups;
  if (Array.isArray(groups) && groups.every((group) => typeof group === "string"))
    recorded.groups = groups.join(",");
  return recorded;
}

/**
 * The nodes a NodeSet holds and what it recorded for each (its groups, common attributes and the
 * node's row, as node-set-plan.ts nodeValues gives them): from its outputs' `rows`, or its inputs'
 * while it is being created; undefined when neither holds rows (then its `nodes` noderange counts).
 */
function nodeSetRecorded(resource: StateResource): Map<string, Record<string, string>> | undefined {
  const source = isRecord(resource.outputs?.rows) ? resource.outputs : resource.inputs;
  if (!isRecord(source?.rows)) return undefined;
  const strings = (value: unknown): Record<string, string> =>
    Object.fromEntries(
      Object.entries(isRecord(value) ? value : {}).filter(
        (entry): entry is [string, string] => typeof entry[1] === "string",
      ),
    );
  const groups = Array.isArray(source.groups) ? source.groups.filter((g) => typeof g === "string") : [];
  const held = new Map<string, Record<string, string>>();
  for (const [node, row] of Object.entries(source.rows)) {
    held.set(
      node,
      nodeValues({ groups, attributes: strings(source.attributes), rows: { [node]: strings(row) } }, node),
    );
  }
  return held;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The stack's view of its nodes on one server; `context` expands noderanges and groups against it.
 * `keys`: the management-node keys of the resources on that server (stack-resources.ts
 * managementNodeKey; the stack's own by default; an explicit provider at the same URL adds its URN).
 */
export function stackNodes(
  exported: unknown,
  context: NoderangeContext,
  keys: ReadonlySet<string> = new Set([STACK_MANAGEMENT_NODE]),
): StackNodes {
  const resources = new Map<string, NodeResource[]>();
  const wantedImages = new Map<string, { osimage: string; deployment: string }>();
  const recorded = new Map<string, Record<string, string>>();
  // By URN: a resource under way shows twice (its state and its pending operation).
  const elsewhere = new Set<string>();
  const add = (node: string, resource: NodeResource) => {
    const list = resources.get(node) ?? [];
    if (list.some((known) => known.kind === resource.kind && known.name === resource.name)) return;
    list.push(resource);
    resources.set(node, list);
  };
  for (const resource of stateResources(exported)) {
    const kind = kindOf(resource);
    if (!/^xcat:[A-Za-z]+$/.test(kind)) continue;
    if (!keys.has(managementNodeKey(managementNodeRoute(resource)))) {
      elsewhere.add(resource.urn ?? resource.id ?? "?");
      continue;
    }
    const name = resource.urn ? nameOfUrn(resource.urn) : (resource.id ?? "?");
    if (kind === "xcat:Node") {
      const node = resource.id ?? (resource.outputs?.name as string | undefined);
      if (typeof node !== "string" || node === "") continue;
      add(node, { kind, name });
      // A Node being created or updated has no outputs yet in its pending operation: its state's stay.
      const values = recordedAttributes(resource);
      if (Object.keys(values).length > 0) recorded.set(node, values);
      continue;
    }
    if (kind === "xcat:NodeSet") {
      const held = nodeSetRecorded(resource);
      if (held !== undefined) {
        for (const [node, values] of held) {
          add(node, { kind, name });
          if (Object.keys(values).length > 0) recorded.set(node, values);
        }
        continue;
      }
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
  return { resources, wantedImages, recorded, elsewhere: elsewhere.size };
}
