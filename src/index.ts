/**
 * pulumi-xcat: Pulumi resources for xCAT clusters, driven through xCAT's REST API (xcatws).
 *
 * @packageDocumentation
 */

export * from "./client";
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
