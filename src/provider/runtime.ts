/**
 * The provider code that Pulumi's dynamic-provider host runs. The `__provider` text in the state
 * (thin-provider.ts) requires this module (`pulumi-xcat/provider-runtime`) and asks
 * {@link providerFor} for its kind's provider; texts written by earlier versions call one of the
 * per-operation functions below with their kind. Each function looks the kind up and delegates.
 *
 * This module is the only entry point the state depends on: keep these signatures stable across
 * releases, because stacks written by older versions call them.
 */
import type * as pulumi from "@pulumi/pulumi";
import { isXcatError } from "../client";
import { byBackend } from "./by-backend";
import { ProviderConfigError } from "./config";
import { confluentAccess } from "./confluent/access";
import { confluentGroupSpec, confluentNodeSpec } from "./confluent/attribute-objects";
import { confluentDeploymentSpec } from "./confluent/deployment";
import { confluentNodeSetSpec } from "./confluent/node-set";
import { confluentPowerStateSpec } from "./confluent/power-state";
import { withoutCounterpart } from "./confluent/without-counterpart";
import { makeProvider } from "./make-provider";
import { deploymentSpec } from "./resources/deployment";
import { echoImplementation } from "./resources/echo";
import { globalConfAttributeSpec } from "./resources/global-conf-attribute";
import { groupSpec } from "./resources/group";
import { networkSpec } from "./resources/network";
import { nodeSpec } from "./resources/node";
import { nodeSetSpec } from "./resources/node-set";
import { osimageSpec } from "./resources/osimage";
import { policySpec } from "./resources/policy";
import { powerStateSpec } from "./resources/power-state";
import { tableRowSpec } from "./resources/table-row";
import { virtualMachineSpec } from "./resources/virtual-machine";
import { ResourceConflictError } from "./spec";

type Implementation = pulumi.dynamic.ResourceProvider;

/** A kind on both backends: the xCAT spec, and Confluent's (or its refusal, without-counterpart.ts). */
const onBoth = (xcat: Implementation, confluent: Implementation) => byBackend({ xcat, confluent });

const implementations: Readonly<Record<string, Implementation>> = {
  "xcat:Echo": echoImplementation,
  "xcat:Node": onBoth(makeProvider(nodeSpec), makeProvider(confluentNodeSpec, confluentAccess)),
  "xcat:NodeSet": onBoth(makeProvider(nodeSetSpec), makeProvider(confluentNodeSetSpec, confluentAccess)),
  "xcat:Group": onBoth(makeProvider(groupSpec), makeProvider(confluentGroupSpec, confluentAccess)),
  "xcat:Osimage": onBoth(makeProvider(osimageSpec), withoutCounterpart("xcat:Osimage")),
  "xcat:Network": onBoth(makeProvider(networkSpec), withoutCounterpart("xcat:Network")),
  "xcat:Policy": onBoth(makeProvider(policySpec), withoutCounterpart("xcat:Policy")),
  "xcat:GlobalConfAttribute": onBoth(
    makeProvider(globalConfAttributeSpec),
    withoutCounterpart("xcat:GlobalConfAttribute"),
  ),
  "xcat:TableRow": onBoth(makeProvider(tableRowSpec), withoutCounterpart("xcat:TableRow")),
  "xcat:VirtualMachine": onBoth(makeProvider(virtualMachineSpec), withoutCounterpart("xcat:VirtualMachine")),
  "xcat:Deployment": onBoth(
    makeProvider(deploymentSpec),
    makeProvider(confluentDeploymentSpec, confluentAccess),
  ),
  "xcat:PowerState": onBoth(
    makeProvider(powerStateSpec),
    makeProvider(confluentPowerStateSpec, confluentAccess),
  ),
};

function implementationFor(kind: string): Implementation {
  const implementation = implementations[kind];
  if (implementation === undefined) {
    throw new Error(
      `pulumi-xcat has no resource kind '${kind}'. The stack was written by a version of pulumi-xcat that ` +
        `knows it; install that version (or a newer one) in the program's node_modules.`,
    );
  }
  return implementation;
}

/**
 * Pulumi's dynamic-provider host prints `${error}: ${error.stack}` for errors from check, diff,
 * read and delete (not for create and update). When the error describes a condition of xCAT or
 * of the configuration (refused, unreachable, a conflict, a bad setting), its message says all
 * there is, and a stack trace only makes it look like a crash: drop it. Other errors are bugs
 * and keep their stack.
 */
async function reportingConditions<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    const condition =
      isXcatError(error) || error instanceof ResourceConflictError || error instanceof ProviderConfigError;
    if (condition) Object.defineProperty(error, "stack", { value: "", writable: true, configurable: true });
    throw error;
  }
}

export async function configure(kind: string, req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  await reportingConditions(async () => implementationFor(kind).configure?.(req));
}

export async function check(kind: string, olds: unknown, news: unknown): Promise<pulumi.dynamic.CheckResult> {
  const implementation = implementationFor(kind);
  return reportingConditions(async () =>
    implementation.check ? implementation.check(olds, news) : { inputs: news },
  );
}

export async function diff(
  kind: string,
  id: string,
  olds: unknown,
  news: unknown,
): Promise<pulumi.dynamic.DiffResult> {
  const implementation = implementationFor(kind);
  return reportingConditions(async () => (implementation.diff ? implementation.diff(id, olds, news) : {}));
}

export async function create(kind: string, inputs: unknown): Promise<pulumi.dynamic.CreateResult> {
  return implementationFor(kind).create(inputs);
}

export async function read(kind: string, id: string, props: unknown): Promise<pulumi.dynamic.ReadResult> {
  const implementation = implementationFor(kind);
  return reportingConditions(async () =>
    implementation.read ? implementation.read(id, props) : { id, props },
  );
}

export async function update(
  kind: string,
  id: string,
  olds: unknown,
  news: unknown,
): Promise<pulumi.dynamic.UpdateResult> {
  const implementation = implementationFor(kind);
  return implementation.update ? implementation.update(id, olds, news) : { outs: news };
}

// `delete` is a reserved word, so the export is renamed.
async function deleteResource(kind: string, id: string, props: unknown): Promise<void> {
  await reportingConditions(async () => implementationFor(kind).delete?.(id, props));
}

export { deleteResource as delete };

/** The dynamic provider of one kind, as the state's `__provider` text hands it to Pulumi's host. */
export function providerFor(kind: string): pulumi.dynamic.ResourceProvider {
  implementationFor(kind);
  return {
    configure: (req) => configure(kind, req),
    check: (olds, news) => check(kind, olds, news),
    diff: (id, olds, news) => diff(kind, id, olds, news),
    create: (inputs) => create(kind, inputs),
    read: (id, props) => read(kind, id, props),
    update: (id, olds, news) => update(kind, id, olds, news),
    delete: (id, props) => deleteResource(kind, id, props),
  };
}
