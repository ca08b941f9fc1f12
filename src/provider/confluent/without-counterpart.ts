/**
 * The resource kinds that have no counterpart on Confluent. On the Confluent backend their
 * preview fails with one sentence saying what Confluent has instead (read from confluent's
 * source at 3.15.6: core.py's resource tree has no networks, site, policy, osimage, table or VM
 * creation; config/attributes.py holds the node attributes named below), so a site sees every
 * part of its program that cannot move before anything is changed.
 */
import type * as pulumi from "@pulumi/pulumi";

export const INSTEAD_ON_CONFLUENT: Readonly<Record<string, string>> = {
  "xcat:Network":
    "Confluent has no network objects: a subnet's gateway, DNS and NTP servers are attributes of a group " +
    "(net.ipv4_gateway, dns.servers, ntp.servers), and addresses are node attributes (net.ipv4_address)",
  "xcat:Osimage":
    "Confluent has no OS image definitions: deployment profiles are directories on the server, made with " +
    "`osdeploy import` from an ISO or `imgutil capture`, and a Deployment names the profile in `osimage`",
  "xcat:Policy":
    "Confluent has no policy table: access is by users and user groups with one of four roles " +
    "(Administrator, Operator, Monitor, Stub), managed with confetty or the /users API",
  "xcat:GlobalConfAttribute":
    "Confluent has no site table: defaults for every node are attributes of the group 'everything', " +
    "and server settings live in /etc/confluent/service.cfg",
  "xcat:TableRow":
    "Confluent has no tables: nodes and groups hold a fixed set of dotted attributes " +
    "(config/attributes.py), set through Node and Group",
  "xcat:VirtualMachine":
    "Confluent does not create virtual machines: it manages existing ones through its vcenter or proxmox " +
    "plugin (hardwaremanagement.method)",
};

function identify(props: unknown): string {
  const inputs = (props ?? {}) as Record<string, unknown>;
  const id = inputs.name ?? inputs.netname ?? inputs.priority ?? inputs.key ?? inputs.table;
  return typeof id === "string" || typeof id === "number" ? ` '${id}'` : "";
}

/** Why a resource of `kind` cannot be on the Confluent stack, as one message. */
export function cannotMoveMessage(kind: string, props: unknown): string {
  return (
    `${kind}${identify(props)} cannot move to Confluent: ${INSTEAD_ON_CONFLUENT[kind]}. Keep it on the xCAT ` +
    "stack, or leave it out of the program where the stack's backend is confluent."
  );
}

/** The Confluent backend's implementation of a kind without counterpart: it refuses at preview. */
export function withoutCounterpart(kind: string): pulumi.dynamic.ResourceProvider {
  return {
    check: async (_olds, news) => ({ failures: [{ property: "", reason: cannotMoveMessage(kind, news) }] }),
    create: async (inputs) => {
      throw new Error(cannotMoveMessage(kind, inputs));
    },
    update: async (_id, _olds, news) => {
      throw new Error(cannotMoveMessage(kind, news));
    },
    // Recorded in a stack that has since switched to Confluent: the object lives on xCAT, and
    // neither forgetting nor deleting it here would be true. Switch back to act on it.
    read: async (_id, props) => {
      throw new Error(
        `${cannotMoveMessage(kind, props)} (It is recorded from the xCAT backend: refresh or destroy it there.)`,
      );
    },
    delete: async (_id, props) => {
      throw new Error(
        `${cannotMoveMessage(kind, props)} (It is recorded from the xCAT backend: destroy it there.)`,
      );
    },
  };
}
