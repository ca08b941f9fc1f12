/**
 * The typed xcatws client: `XcatClient`, its option and result types, and the error guards.
 *
 * @packageDocumentation
 */
export { parseTokenExpiry, renewalTime, type XcatToken } from "./auth";
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
} from "./errors";
export type { ReadBatcherTuning } from "./read-batcher";
export { redactBody, redactHeaders, redactText, redactUrl } from "./redact";
export type { GlobalconfApi } from "./resources/globalconf";
export type { GroupsApi } from "./resources/groups";
export type { NetworksApi } from "./resources/networks";
export type {
  BootstateTarget,
  ChangeVmInput,
  CloneVmInput,
  CreateVmInput,
  Noderange,
  NodesApi,
  NodeshellInput,
  PowerAction,
} from "./resources/nodes";
export type {
  AttributeMaps,
  CreateOptions,
  DeleteOptions,
  GetManyOptions,
  UpdatedObject,
} from "./resources/objects";
export type { ImageParams, ImageSource, OsimagesApi } from "./resources/osimages";
export type { PolicyApi } from "./resources/policy";
export type { NodeOutput, NodeResults, PerNode } from "./resources/results";
export type { ServicesApi, SlpServiceType } from "./resources/services";
export type { TableRow, TableRows, TablesApi } from "./resources/tables";
export type { Credentials, IssuedToken, TokensApi } from "./resources/tokens";
export { DEFAULT_RETRY, type RetryOptions, shouldRetry } from "./retry";
export type {
  AttributeInput,
  Attributes,
  CallerGauge,
  CallOptions,
  QueryOptions,
  XcatClientMetrics,
  XcatClientOptions,
  XcatLogger,
} from "./types";
export { normalizeBaseUrl, XcatClient } from "./xcat-client";
