/**
 * pulumi-xcat: Pulumi resources for xCAT clusters, driven through xCAT's REST API (xcatws).
 *
 * @packageDocumentation
 */

export * from "./client";
export { Echo, type EchoArgs } from "./provider/resources/echo-resource";
