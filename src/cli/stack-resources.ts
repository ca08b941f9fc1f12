/**
 * Every way a pulumi-xcat resource's kind and its management node show in what the engine prints
 * (`pulumi preview --json` steps, the event log of `pulumi refresh --preview-only`, `pulumi stack
 * export`), in one place for review and drift.
 *
 * The kind, from the type token:
 * - a TypeScript program's dynamic resource: `pulumi-nodejs:dynamic/xcat:Node`
 *   (@pulumi/pulumi dynamic/index.js registers `pulumi-nodejs:dynamic/<module>:<type>`);
 * - the native provider's, from YAML, Python or Go: `xcat:index:Node` (src/native/kinds.ts);
 * - the core's own name, `xcat:Node`, as older captures and tests carry it.
 * A URN names the type after its parents' (`…::parentType$xcat:index:Node::name`); the last counts.
 *
 * The management node, in this order:
 * 1. the resource's own `connection` input (either API): that URL;
 * 2. its provider, the state's `provider` reference (`<provider urn>::<provider id>`): an explicit
 *    `pulumi:providers:xcat` is a management node of its own, with the url and backend of its
 *    inputs where the JSON carries the provider's state (`preview --json` lists a provider only
 *    when it changes, or with `--show-sames`; `stack export` always);
 * 3. otherwise the stack's: the default provider `pulumi:providers:xcat::default…` of a native
 *    program, or `pulumi:providers:pulumi-nodejs::default` of a TypeScript one, configured by the
 *    stack config `xcat:*` (then `XCAT_*`).
 *
 * Pure.
 */

/**
 * The key by which Pulumi's JSON marks a secret (`{"4dabf…": "1b47…", "plaintext"|"ciphertext": …}`
 * in `stack export`, preview JSON and plans; @pulumi/pulumi runtime `specialSigKey`).
 */
export const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** A resource as these JSONs show it: a preview or refresh step, or a state resource. */
export interface ResourceView {
  readonly urn?: string;
  readonly type?: string;
  readonly provider?: string;
  readonly inputs?: Record<string, unknown>;
  readonly outputs?: Record<string, unknown>;
  readonly oldState?: ResourceState;
  readonly newState?: ResourceState;
}
export interface ResourceState {
  readonly urn?: string;
  readonly type?: string;
  readonly provider?: string;
  readonly id?: string;
  readonly inputs?: Record<string, unknown>;
  readonly outputs?: Record<string, unknown>;
}

/** How a `connection` held as a secret is named when its state records no server (make-provider.ts). */
export const SECRET_CONNECTION = "a connection held as a secret";

/** The provider type of the native provider's management nodes. */
export const XCAT_PROVIDER_TYPE = "pulumi:providers:xcat";

/** The key of the stack's own management node (its config `xcat:*`, then `XCAT_*`). */
export const STACK_MANAGEMENT_NODE = "";

/** The type token of a resource view: its own, its states', else its URN's. */
export function typeToken(view: ResourceView): string {
  const type = view.type ?? view.newState?.type ?? view.oldState?.type ?? typeOfUrn(view.urn);
  return type ?? "?";
}

/** The type in a URN (`urn:pulumi:<stack>::<project>::[<parent type>$]<type>::<name>`). */
function typeOfUrn(urn: string | undefined): string | undefined {
  const qualified = urn?.split("::")[2];
  return qualified?.split("$").at(-1);
}

/**
 * The core's kind (`xcat:Node`) for any of the type tokens a pulumi-xcat resource shows with;
 * anything else as it is (`pulumi:providers:xcat`, `pulumi:pulumi:Stack`, another package's).
 *
 * @example
 * resourceKind("pulumi-nodejs:dynamic/xcat:Deployment"); // "xcat:Deployment"
 * resourceKind("xcat:index:Deployment"); // "xcat:Deployment"
 */
export function resourceKind(type: string): string {
  const last = type.split("$").at(-1) ?? type;
  const dynamic = /^pulumi-nodejs:dynamic\/(xcat:[A-Za-z]+)$/.exec(last);
  if (dynamic?.[1]) return dynamic[1];
  const native = /^xcat:index:([A-Za-z]+)$/.exec(last);
  if (native?.[1]) return `xcat:${native[1]}`;
  return last;
}

/** The kind of a resource view (see {@link resourceKind}). */
export function kindOf(view: ResourceView): string {
  return resourceKind(typeToken(view));
}

/** Whether the resource is one of pulumi-xcat's (a Node, a Deployment, …), not a provider or the stack. */
export function isXcatResource(view: ResourceView): boolean {
  return /^xcat:[A-Za-z]+$/.test(kindOf(view));
}

/** Whether the resource is an explicit or default `pulumi:providers:xcat`. */
export function isXcatProvider(view: ResourceView): boolean {
  return typeToken(view) === XCAT_PROVIDER_TYPE;
}

/** The inputs the view holds: its own (a state), else the new state's, else the old's. */
function inputsOf(view: ResourceView): Record<string, unknown> | undefined {
  return view.inputs ?? view.newState?.inputs ?? view.oldState?.inputs;
}

function providerReference(view: ResourceView): string | undefined {
  const reference = view.provider ?? view.newState?.provider ?? view.oldState?.provider;
  return typeof reference === "string" && reference !== "" ? reference : undefined;
}

/**
 * The server a resource's state records it was written on (`managementServer`: backend and URL,
 * src/provider/stack-server.ts), from the newest state that has one.
 */
function recordedServer(view: ResourceView): { url: string; backend: string } | undefined {
  for (const outputs of [view.outputs, view.newState?.outputs, view.oldState?.outputs]) {
    const record = outputs?.managementServer as { url?: unknown; backend?: unknown } | undefined;
    if (typeof record?.url === "string" && typeof record.backend === "string")
      return { url: record.url, backend: record.backend };
  }
  return undefined;
}

/** The URN of a provider reference (`<urn>::<id>`; the id is the last part). */
export function providerUrnOf(reference: string): string {
  const parts = reference.split("::");
  return parts.length > 4 ? parts.slice(0, -1).join("::") : reference;
}

/** The resource name of a URN: what follows its type. */
export function nameOfUrn(urn: string): string {
  return urn.split("::").slice(3).join("::");
}

/** Whether a provider is a stack's default one (`default`, `default_0_1_0`): configured by the stack's config. */
function isDefaultProvider(providerUrn: string): boolean {
  return /^default(_|$)/.test(nameOfUrn(providerUrn));
}

/** How a resource reaches its management node. */
export type ManagementNodeRoute =
  /** The stack's config: a default provider (or none recorded). */
  | { readonly via: "stack" }
  /** An explicit `pulumi:providers:xcat`, by its URN. */
  | { readonly via: "provider"; readonly urn: string }
  /** The resource's own `connection` input. */
  | { readonly via: "connection"; readonly url: string; readonly backend?: string };

/** The route of one resource (see the file's comment for the order). */
export function managementNodeRoute(view: ResourceView): ManagementNodeRoute {
  const connection = inputsOf(view)?.connection;
  if (connection !== undefined && connection !== null) {
    const url = (connection as { url?: unknown }).url;
    const backend = (connection as { backend?: unknown }).backend;
    if (typeof url !== "string") {
      // The classes pass a connection as a secret (`[secret]` or a ciphertext here): the server
      // the provider recorded it names, backend and URL, says where it is (make-provider.ts).
      const recorded = recordedServer(view);
      if (recorded !== undefined) return { via: "connection", ...recorded };
    }
    return {
      via: "connection",
      // A secret connection not written since the record existed (or a create): named as such.
      url: typeof url === "string" ? url : SECRET_CONNECTION,
      ...(typeof backend === "string" ? { backend } : {}),
    };
  }
  const reference = providerReference(view);
  if (reference !== undefined) {
    const urn = providerUrnOf(reference);
    if (typeOfUrn(urn) === XCAT_PROVIDER_TYPE && !isDefaultProvider(urn)) return { via: "provider", urn };
  }
  return { via: "stack" };
}

/**
 * The key a management node is grouped by: {@link STACK_MANAGEMENT_NODE} for the stack's own,
 * the provider's URN for an explicit provider, the URL for a `connection`.
 */
export function managementNodeKey(route: ManagementNodeRoute): string {
  if (route.via === "stack") return STACK_MANAGEMENT_NODE;
  return route.via === "provider" ? route.urn : route.url;
}

/** What is known of a management node: how it is reached, and its url and backend when the JSON shows them. */
export interface ManagementNode {
  readonly key: string;
  readonly route: ManagementNodeRoute;
  readonly url?: string;
  /** `xcat` or `confluent` when known. */
  readonly backend?: string;
}

/**
 * The explicit providers' url and backend, from the provider resources among `views` (a preview's
 * steps, a state's resources): by provider URN. A secret or unknown url is left out.
 */
export function explicitProviders(
  views: readonly ResourceView[],
): Map<string, { url?: string; backend?: string }> {
  const found = new Map<string, { url?: string; backend?: string }>();
  for (const view of views) {
    if (!isXcatProvider(view)) continue;
    const urn = view.urn ?? view.newState?.urn ?? view.oldState?.urn;
    if (urn === undefined || isDefaultProvider(urn)) continue;
    const inputs = inputsOf(view) ?? {};
    const url = inputs.url;
    const backend = inputs.backend;
    found.set(urn, {
      ...(typeof url === "string" && url !== "[secret]" ? { url } : {}),
      ...(typeof backend === "string" && backend !== "[secret]" ? { backend } : {}),
    });
  }
  return found;
}

/**
 * The management node of a resource, with what `providers` ({@link explicitProviders}) and the
 * stack `config` (`xcat:url`, `xcat:backend`) tell of it.
 */
export function managementNodeOf(
  view: ResourceView,
  providers: ReadonlyMap<string, { url?: string; backend?: string }>,
  config: Readonly<Record<string, unknown>> = {},
): ManagementNode {
  const route = managementNodeRoute(view);
  const key = managementNodeKey(route);
  if (route.via === "connection") {
    return { key, route, url: route.url, ...(route.backend ? { backend: route.backend } : {}) };
  }
  if (route.via === "provider") {
    const known = providers.get(route.urn) ?? {};
    return { key, route, ...known, ...(known.backend === undefined ? {} : { backend: known.backend }) };
  }
  const url = config["xcat:url"];
  const backend = config["xcat:backend"];
  return {
    key,
    route,
    ...(typeof url === "string" && url !== "[secret]" ? { url } : {}),
    ...(typeof backend === "string" && backend !== "[secret]" ? { backend } : {}),
  };
}

/**
 * A management node as a reader sees it: `the stack's management node`, `provider mnB
 * (https://mn-b:443, confluent)`, or a connection's URL.
 */
export function describeManagementNode(node: ManagementNode): string {
  const backend = node.backend === "confluent" ? "Confluent" : node.backend === "xcat" ? "xCAT" : undefined;
  const facts = [node.url, backend].filter((part): part is string => part !== undefined);
  if (node.route.via === "stack") {
    return `the stack's management node${backend ? ` (${backend})` : ""}`;
  }
  if (node.route.via === "connection") return backend ? `${node.route.url} (${backend})` : node.route.url;
  return `provider ${nameOfUrn(node.route.urn)}${facts.length > 0 ? ` (${facts.join(", ")})` : ""}`;
}
