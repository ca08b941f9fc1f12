/**
 * Runs a node's name services (name-services.ts decides which) against its management node:
 * after a create or an update, and before a delete. Each command goes through the client's
 * name-service calls, which merge the nodes of concurrent steps into one noderange request per
 * command (client nodes.ts), as node deletes and equal updates merge.
 */
import type { XcatClient } from "../client";
import type { AttributeObjectInputs } from "./attribute-object";
import {
  describePlannedSteps,
  describeSteps,
  effectiveChoice,
  type NameServiceChoice,
  type NameServiceStep,
  type SiteServices,
  stepsForDelete,
  stepsForWrite,
} from "./name-services";
import { processSettings } from "./process-settings";
import { sayLine } from "./provider-lines";
import { settingName } from "./setting-advice";

/** site.dhcpsetup, nameservers and master, read once per management node and process. */
const siteReads = new WeakMap<XcatClient, Promise<SiteServices>>();

export function siteServicesOf(client: XcatClient): Promise<SiteServices> {
  let read = siteReads.get(client);
  if (read === undefined) {
    read = client.globalconf
      .getAttrs(["dhcpsetup", "nameservers", "master"])
      .then((site) => ({ dhcpsetup: site.dhcpsetup, nameservers: site.nameservers, master: site.master }));
    siteReads.set(client, read);
    read.catch(() => siteReads.delete(client));
  }
  return read;
}

async function choiceFor(client: XcatClient, inputs: AttributeObjectInputs): Promise<NameServiceChoice> {
  const stack = processSettings().nameServices;
  if (!stack.hosts && !stack.dns && !stack.dhcp) return stack;
  const own = inputs.nameServices as Readonly<Record<string, unknown>> | undefined;
  return effectiveChoice(stack, own, await siteServicesOf(client));
}

async function send(client: XcatClient, node: string, step: NameServiceStep): Promise<void> {
  const nodes = client.nodes;
  const run = {
    makehosts: () => nodes.makeHosts(node),
    makedns: () => nodes.makeDns(node),
    makedhcp: () => nodes.makeDhcp(node),
    "makedns -d": () => nodes.removeDns(node),
    "makedhcp -d": () => nodes.removeDhcp(node),
  }[step];
  try {
    await run();
  } catch (error) {
    // A node already gone (deleted by hand) is no noderange any more: its entries cannot be named
    // through REST, and the delete it precedes finds nothing either.
    if (step.endsWith("-d") && /Invalid nodes and\/or groups in noderange/.test((error as Error).message))
      return;
    throw new Error(
      `xcat:Node '${node}': ${step} failed: ${(error as Error).message} The node itself was written; ` +
        "run up again, or turn this name service off with the node's nameServices input or " +
        `${settingName("nameServices", processSettings().origin)} if the site runs it elsewhere.`,
    );
  }
}

/** A node write as the name-service hooks get it: the managed attributes before (absent: created) and after. */
type NodeWrite = [
  client: XcatClient,
  node: string,
  before: Readonly<Record<string, string>> | undefined,
  after: Readonly<Record<string, string>>,
  inputs: AttributeObjectInputs,
];

async function stepsOfWrite(...[client, , before, after, inputs]: NodeWrite): Promise<NameServiceStep[]> {
  // Most writes need no command (no ip, no name attribute changed): those read nothing, so a
  // preview without new or readdressed nodes stays at its one connection check.
  if (stepsForWrite(before, after, { hosts: true, dns: true, dhcp: true }).length === 0) return [];
  return stepsForWrite(before, after, await choiceFor(client, inputs));
}

/**
 * At check (so in `pulumi preview`): the line saying which name-service commands `up` will send
 * for this create or update, from the same decision as {@link nameServicesAfterWrite}. A delete
 * gets no line here: the engine plans deletes without asking the provider (review lists them).
 */
export async function announceNameServices(...write: NodeWrite): Promise<void> {
  const steps = await stepsOfWrite(...write);
  if (steps.length > 0) sayLine(describePlannedSteps(write[1], steps));
}

/** After a node write: the steps it needs, each said on the `pulumi up` output. */
export async function nameServicesAfterWrite(...write: NodeWrite): Promise<void> {
  const [client, node] = write;
  const steps = await stepsOfWrite(...write);
  if (steps.length === 0) return;
  sayLine(describeSteps(node, steps, false));
  for (const step of steps) await send(client, node, step);
}

/** Before a node delete: its DNS record and DHCP reservation go first. */
export async function nameServicesBeforeDelete(
  client: XcatClient,
  node: string,
  olds: AttributeObjectInputs,
): Promise<void> {
  const choice = await choiceFor(client, olds);
  const steps = stepsForDelete(choice);
  if (steps.length === 0 && !choice.hosts) return;
  sayLine(describeSteps(node, steps, choice.hosts));
  for (const step of steps) await send(client, node, step);
}
