/**
 * Confluent's HTTP paths, below the API root. The web front end serves the API at
 * `/confluent-api`; the daemon strips that prefix itself (httpapi.py resourcehandler), so a
 * client is configured with the URL ending in /confluent-api and appends these.
 * Resource tree: core.py (noderesources, nodegroupresources), 3.15.6.
 */

export const CONFLUENT_API_ROOT = "/confluent-api";

/** Encodes one path segment the way Confluent decodes it (a noderange may hold `[`, `]`, `,`, `@`, `~`). */
function seg(name: string): string {
  return encodeURIComponent(name).replaceAll("%2C", ",").replaceAll("%40", "@");
}

export const confluentPaths = {
  root: () => "/",
  version: () => "/version",
  sessionInfo: () => "/sessions/current/info",
  logout: () => "/sessions/current/logout",
  /** GET lists nodes (`_links.item`); POST {name, groups, ...attributes} creates one. */
  nodes: () => "/nodes/",
  /** GET lists the node's sub-collections; DELETE deletes it. */
  node: (node: string) => `/nodes/${seg(node)}/`,
  nodeDelete: (node: string) => `/nodes/${seg(node)}`,
  nodeAttributes: (node: string, view: "current" | "all" | "check" | "expression" | "rename") =>
    `/nodes/${seg(node)}/attributes/${view}`,
  /** POST {name: "<noderange>", ...attributes} creates every node the range names. */
  noderangeCreate: () => "/noderange/",
  /** DELETE deletes every node of the range. */
  noderange: (range: string) => `/noderange/${seg(range)}`,
  noderangeNodes: (range: string) => `/noderange/${seg(range)}/nodes/`,
  noderangeAttributes: (range: string, view: "current" | "all" | "check" | "expression" | "rename") =>
    `/noderange/${seg(range)}/attributes/${view}`,
  abbreviate: (range: string) => `/noderange/${seg(range)}/abbreviate`,
  nodegroups: () => "/nodegroups/",
  nodegroup: (group: string) => `/nodegroups/${seg(group)}`,
  nodegroupAttributes: (group: string, view: "current" | "all" | "check" | "rename") =>
    `/nodegroups/${seg(group)}/attributes/${view}`,
  /** Node or noderange target: `/nodes/<n>` or `/noderange/<nr>`. */
  powerState: (target: string) => `${target}/power/state`,
  nextDevice: (target: string) => `${target}/boot/nextdevice`,
  deploymentLock: (target: string) => `${target}/deployment/lock`,
  deploymentProfiles: () => "/deployment/profiles/",
  deploymentProfileInfo: (profile: string) => `/deployment/profiles/${seg(profile)}/info`,
  /** Prefix of a single node's resources. */
  nodeTarget: (node: string) => `/nodes/${seg(node)}`,
  /** Prefix of a noderange's resources. */
  noderangeTarget: (range: string) => `/noderange/${seg(range)}`,
} as const;

/** Members of the root collection (core.py:166 rootcollections). */
export const CONFLUENT_ROOT_COLLECTIONS = [
  "deployment/",
  "discovery/",
  "events/",
  "networking/",
  "noderange/",
  "nodes/",
  "nodegroups/",
  "storage/",
  "usergroups/",
  "users/",
  "uuid",
  "version",
  "staging/",
] as const;

/** Members of one node's collection, in the order 3.15.6 lists them (core.py noderesources, recorded). */
export const CONFLUENT_NODE_RESOURCES = [
  "attributes/",
  "boot/",
  "configuration/",
  "shell/",
  "console/",
  "description",
  "deployment/",
  "events/",
  "health/",
  "identify",
  "inventory/",
  "layout",
  "media/",
  "power/",
  "sensors/",
  "support/",
] as const;

/** Members of /deployment/ (core.py:188 handle_deployment). */
export const CONFLUENT_DEPLOYMENT_COLLECTIONS = ["distributions/", "profiles/", "importing/"] as const;
