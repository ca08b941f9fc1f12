/**
 * pulumi-xcat: Pulumi resources for xCAT clusters, driven through xCAT's REST API (xcatws).
 *
 * @packageDocumentation
 */

import type * as RetryModule from "./client/retry";
import type * as XcatClientModule from "./client/xcat-client";
import { unsupportedNodeSentence } from "./supported-node";

// A program on a Node.js too old for the client fails here, in one sentence naming the node it
// runs on, rather than later inside undici (src/supported-node.ts).
const tooOld = unsupportedNodeSentence("pulumi-xcat");
if (tooOld !== undefined) throw new Error(tooOld);

// The client's light parts (errors, auth, redaction, URL checks) load with the package; its
// requests (undici, zod, p-retry: 0.3-0.4 s of CPU, docs/e2e-time.md) load on first use, because
// every TypeScript program loads this module at each preview and up, and one that only declares
// resources never calls the client. So this module names the client's exports one by one instead
// of `export * from "./client"` (test/unit/package-exports.test.ts checks that none is missing).
// The client's `TableRow` type is shadowed by the TableRow resource class at the end, as it was under
// `export *` (a module's own export wins).

export type {
  AttributeInput,
  AttributeMaps,
  Attributes,
  BootstateTarget,
  CallerGauge,
  CallOptions,
  ChangeVmInput,
  CloneVmInput,
  CreateOptions,
  CreateVmInput,
  Credentials,
  DeleteOptions,
  GetManyOptions,
  GlobalconfApi,
  GroupsApi,
  ImageParams,
  ImageSource,
  IssuedToken,
  NetworksApi,
  NodeOutput,
  NodeResults,
  Noderange,
  NodesApi,
  NodeshellInput,
  OsimagesApi,
  PerNode,
  PolicyApi,
  PowerAction,
  QueryOptions,
  ReadBatcherTuning,
  RetryOptions,
  ServicesApi,
  SlpServiceType,
  TableRows,
  TablesApi,
  TokensApi,
  UpdatedObject,
  XcatClientMetrics,
  XcatClientOptions,
  XcatLogger,
} from "./client";
export { parseTokenExpiry, renewalTime, type XcatToken } from "./client/auth";
export { normalizeBaseUrl } from "./client/base-url";
export {
  createXcatError,
  isAlreadyExists,
  isAuthError,
  isCancelled,
  isNetworkError,
  isNotFound,
  isResponseShapeError,
  isTimeoutError,
  isTlsError,
  isTransientError,
  isUsageError,
  isXcatError,
  XcatAlreadyExistsError,
  XcatAuthError,
  XcatCancelledError,
  XcatError,
  XcatErrorCode,
  type XcatErrorDetails,
  XcatHttpError,
  XcatNetworkError,
  XcatNotFoundError,
  XcatResponseShapeError,
  XcatTimeoutError,
  XcatTlsError,
  XcatUsageError,
} from "./client/errors";
export { redactBody, redactHeaders, redactText, redactUrl } from "./client/redact";

/** The typed xcatws client (src/client/xcat-client.ts), loaded on first use. */
export declare const XcatClient: typeof XcatClientModule.XcatClient;
export type XcatClient = XcatClientModule.XcatClient;
/** The client's default retry options (src/client/retry.ts), loaded on first use. */
export declare const DEFAULT_RETRY: typeof RetryModule.DEFAULT_RETRY;
/** Whether the client retries a failed request (src/client/retry.ts), loaded on first use. */
export declare const shouldRetry: typeof RetryModule.shouldRetry;

/** Loads each module at its first use; Node caches it, so later reads cost a property lookup. */
const lazyClient = {
  get XcatClient(): typeof XcatClientModule.XcatClient {
    return (require("./client/xcat-client") as typeof XcatClientModule).XcatClient;
  },
  get DEFAULT_RETRY(): typeof RetryModule.DEFAULT_RETRY {
    return (require("./client/retry") as typeof RetryModule).DEFAULT_RETRY;
  },
  get shouldRetry(): typeof RetryModule.shouldRetry {
    return (require("./client/retry") as typeof RetryModule).shouldRetry;
  },
};
// Written as TypeScript writes a re-export, `get: function () { return x.y; }`, the form Node's
// cjs-module-lexer recognises: an ES module's `import { XcatClient } from "pulumi-xcat"` then
// finds the name without running this module first.
// biome-ignore-start lint/complexity/useArrowFunction: the lexer recognises only this form
Object.defineProperty(exports, "XcatClient", {
  enumerable: true,
  get: function () {
    return lazyClient.XcatClient;
  },
});
Object.defineProperty(exports, "DEFAULT_RETRY", {
  enumerable: true,
  get: function () {
    return lazyClient.DEFAULT_RETRY;
  },
});
Object.defineProperty(exports, "shouldRetry", {
  enumerable: true,
  get: function () {
    return lazyClient.shouldRetry;
  },
});

// biome-ignore-end lint/complexity/useArrowFunction: the lexer recognises only this form

export type { ConnectionArgs } from "./provider/classes/common";
export { Deployment, type DeploymentArgs, type DeploymentNodeState } from "./provider/classes/deployment";
export { GlobalConfAttribute, type GlobalConfAttributeArgs } from "./provider/classes/global-conf-attribute";
export { Group, type GroupArgs, type GroupAttributes } from "./provider/classes/group";
export { Network, type NetworkArgs, type NetworkAttributes } from "./provider/classes/network";
export { Node, type NodeArgs, type NodeAttributes } from "./provider/classes/node";
export { NodeSet, type NodeSetArgs } from "./provider/classes/node-set";
export { Osimage, type OsimageArgs, type OsimageAttributes } from "./provider/classes/osimage";
export { Policy, type PolicyArgs, type PolicyAttributes } from "./provider/classes/policy";
export { PowerState, type PowerStateArgs } from "./provider/classes/power-state";
export { TableRow, type TableRowArgs } from "./provider/classes/table-row";
export { VirtualMachine, type VirtualMachineArgs } from "./provider/classes/virtual-machine";
