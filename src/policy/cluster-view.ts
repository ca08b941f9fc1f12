/**
 * The stack's resources as the policy pack's rules see them: nodes, networks, images, deployments
 * and power states with the values the rules compare. Pure, so every rule is unit-tested on plain
 * objects.
 *
 * A policy sees each resource's outputs, under the type its program's way in gives it:
 * `pulumi-nodejs:dynamic/xcat:Node` for a TypeScript `Node` (a dynamic resource), `xcat:index:Node`
 * for one that YAML, Python or Go declare through the native provider; both are the kind `xcat:Node`,
 * with the same props. For a resource the update creates or changes they are the
 * program's inputs, for an unchanged one what the last update stored, so the view is the stack as it
 * will be. A value that depends on another resource is unknown during preview (Pulumi's unknown
 * sentinel, {@link UNKNOWN}): the rules skip it rather than guess.
 */
import { nodeValues } from "../provider/node-set-plan";
import { nodeSetRows } from "../provider/node-set-rows";
import { UNKNOWN } from "../provider/validation";

export { UNKNOWN };

/** One resource of the stack, as @pulumi/policy hands it to a stack policy (unknowns as {@link UNKNOWN}). */
export interface StackResource {
  readonly urn: string;
  /** The Pulumi resource name (the URN's last part). */
  readonly name: string;
  readonly type: string;
  readonly props: Readonly<Record<string, unknown>>;
}

/** A resource as violations name it: its kind and Pulumi name, plus its URN to attach the report to. */
export interface ResourceRef {
  readonly kind: string;
  readonly name: string;
  readonly urn: string;
}

/**
 * A node of the stack: a Node resource's, or one row of a NodeSet (its `kind` is then
 * `xcat:NodeSet` and its `name` the set's, each row its own NodeView with the set's groups and
 * common attributes under its own values, as node-set-plan.ts nodeValues gives the node).
 */
export interface NodeView extends ResourceRef {
  /** The node's name in xCAT. */
  readonly nodeName: string;
  /** Its groups; undefined when not known during preview. */
  readonly groups: readonly string[] | undefined;
  readonly attributes: Readonly<Record<string, string>>;
  /** Attributes the node sets to a value unknown during preview (not in `attributes`). */
  readonly unknownAttributes: ReadonlySet<string>;
}

/** A Group of the stack: the attributes its member nodes inherit (held-values.ts). */
export interface GroupView extends ResourceRef {
  /** The group's name in xCAT. */
  readonly groupName: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly unknownAttributes: ReadonlySet<string>;
}

export interface NetworkView extends ResourceRef {
  readonly netName: string;
  readonly net: string;
  readonly mask: string;
}

/** A Deployment or PowerState: the noderange it acts on. */
export interface TargetView extends ResourceRef {
  /** Its `nodes` as given: one noderange, or a list of names; undefined when unknown. */
  readonly nodes: string | readonly string[] | undefined;
}

export interface DeploymentView extends TargetView {
  readonly osimage: string | undefined;
}

export interface ClusterView {
  readonly nodes: readonly NodeView[];
  readonly groups: readonly GroupView[];
  readonly networks: readonly NetworkView[];
  /** The names of the stack's Osimage resources. */
  readonly osimages: ReadonlySet<string>;
  readonly deployments: readonly DeploymentView[];
  readonly powerStates: readonly TargetView[];
}

/**
 * `xcat:Node` for `pulumi-nodejs:dynamic/xcat:Node` (TypeScript) and for `xcat:index:Node` (the
 * native provider); undefined for any other resource, the native provider's own
 * `pulumi:providers:xcat` included.
 */
export function xcatKind(type: string): string | undefined {
  const dynamicKind = type.split("dynamic/")[1];
  if (dynamicKind !== undefined) return dynamicKind.startsWith("xcat:") ? dynamicKind : undefined;
  const native = /^xcat:index:(\w+)$/.exec(type);
  return native ? `xcat:${native[1]}` : undefined;
}

const known = (value: unknown): string | undefined =>
  typeof value === "string" && value !== UNKNOWN ? value : undefined;

function knownList(value: unknown): readonly string[] | undefined {
  if (!Array.isArray(value) || value.some((item) => known(item) === undefined)) return undefined;
  return value as string[];
}

function stringMap(value: unknown): Record<string, string> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  const result: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    const text = known(item);
    if (text !== undefined) result[key] = text;
  }
  return result;
}

/** In `unknownAttributes`: the whole attribute map is unknown during preview. */
export const EVERY_ATTRIBUTE = "*";

function unknownKeys(value: unknown): Set<string> {
  if (value === UNKNOWN) return new Set([EVERY_ATTRIBUTE]);
  if (typeof value !== "object" || value === null || Array.isArray(value)) return new Set();
  return new Set(Object.entries(value).flatMap(([key, item]) => (item === UNKNOWN ? [key] : [])));
}

/** Sorts the stack's xCAT resources into what the rules compare. */
export function clusterView(resources: readonly StackResource[]): ClusterView {
  const nodes: NodeView[] = [];
  const groups: GroupView[] = [];
  const networks: NetworkView[] = [];
  const osimages = new Set<string>();
  const deployments: DeploymentView[] = [];
  const powerStates: TargetView[] = [];
  for (const resource of resources) {
    const kind = xcatKind(resource.type);
    if (kind === undefined) continue;
    const ref: ResourceRef = { kind, name: resource.name, urn: resource.urn };
    const props = resource.props;
    const objectName = known(props.name) ?? resource.name;
    const nodesInput = known(props.nodes) ?? knownList(props.nodes);
    switch (kind) {
      case "xcat:Node":
        nodes.push({
          ...ref,
          nodeName: objectName,
          groups: knownList(props.groups),
          attributes: stringMap(props.attributes),
          unknownAttributes: unknownKeys(props.attributes),
        });
        break;
      case "xcat:NodeSet":
        nodes.push(...nodeSetNodes(ref, props));
        break;
      case "xcat:Group":
        groups.push({
          ...ref,
          groupName: objectName,
          attributes: stringMap(props.attributes),
          unknownAttributes: unknownKeys(props.attributes),
        });
        break;
      case "xcat:Network": {
        const net = known(props.net);
        const mask = known(props.mask);
        if (net !== undefined && mask !== undefined)
          networks.push({ ...ref, netName: objectName, net, mask });
        break;
      }
      case "xcat:Osimage":
        osimages.add(objectName);
        break;
      case "xcat:Deployment":
        deployments.push({ ...ref, nodes: nodesInput, osimage: known(props.osimage) });
        break;
      case "xcat:PowerState":
        powerStates.push({ ...ref, nodes: nodesInput });
        break;
    }
  }
  return { nodes, groups, networks, osimages, deployments, powerStates };
}

/**
 * The nodes of a NodeSet's props: its `rows` (the provider's checked inputs, and its outputs), or
 * its `csv` parsed as the provider parses it when the props hold the text; none while the rows
 * are unknown during preview. A row's unknown cell is an unknown attribute of that node.
 */
function nodeSetNodes(ref: ResourceRef, props: Readonly<Record<string, unknown>>): NodeView[] {
  let rows: unknown = props.rows;
  if (rows === undefined && typeof props.csv === "string") rows = nodeSetRows(props).rows;
  if (typeof rows !== "object" || rows === null || Array.isArray(rows)) return [];
  const groups = knownList(props.groups);
  const common = stringMap(props.attributes);
  const commonUnknown = unknownKeys(props.attributes);
  return Object.entries(rows as Record<string, unknown>).map(([nodeName, row]) => {
    const own = stringMap(row);
    const { groups: _groups, ...attributes } = nodeValues(
      { groups: [], attributes: common, rows: { [nodeName]: own } },
      nodeName,
    );
    return {
      ...ref,
      nodeName,
      groups,
      attributes,
      unknownAttributes: new Set([...commonUnknown, ...unknownKeys(row)]),
    };
  });
}

/**
 * How a violation names a node, with `detail` (`, from Group "rack02"'s |…|`) after its name:
 * `Node "cn07" (node cn07)`, or for a NodeSet's row `NodeSet "rack1" row r01n03`.
 */
export function describeNode(node: NodeView, detail = ""): string {
  if (node.kind === "xcat:NodeSet") {
    const more = detail.replace(/^, /, "");
    return `${describeResource(node)} row ${node.nodeName}${more ? ` (${more})` : ""}`;
  }
  return `${describeResource(node)} (node ${node.nodeName}${detail})`;
}

/** How a violation names a resource: `Node "r01n01"`. */
export function describeResource(ref: ResourceRef): string {
  return `${ref.kind.slice("xcat:".length)} "${ref.name}"`;
}

/** A rule's finding: the message names every resource involved and the value; `urn` is where Pulumi shows it. */
export interface Violation {
  readonly message: string;
  readonly urn: string;
}
