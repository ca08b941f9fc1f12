/**
 * What a plan does to the management node's name services (issue #29 item 2), as review lines of
 * their own: `hosts, DNS, DHCP entries: r01n[01-05] added; r01n[06-07] removed`. The provider makes
 * the same decision when it runs (provider/name-services.ts): which nodes get which commands
 * depends on each node's `ip` and name attributes, the stack's `xcat:nameServices` (from the
 * preview's config), a node's `nameServices` input, and what the management node serves
 * (site.nameservers, site.dhcpsetup), read by review when it can. Pure.
 */
import { compressNoderange } from "../../contract/noderange";
import {
  effectiveChoice,
  type NameService,
  type NameServiceChoice,
  type NameServiceStep,
  parseNameServices,
  type SiteServices,
  stepsForDelete,
  stepsForWrite,
} from "../../provider/name-services";

/** A preview step as far as name services look at it. */
interface NodeStep {
  readonly op?: string;
  readonly oldState?: { readonly inputs?: Record<string, unknown> };
  readonly newState?: { readonly inputs?: Record<string, unknown> };
}

const SERVICE_OF: Record<NameServiceStep, NameService> = {
  makehosts: "hosts",
  makedns: "dns",
  makedhcp: "dhcp",
  "makedns -d": "dns",
  "makedhcp -d": "dhcp",
};
const SERVICE_TEXT: Record<NameService, string> = { hosts: "hosts", dns: "DNS", dhcp: "DHCP" };

/** What the plan does to one node's entries. */
type Action = "added" | "rewritten" | "removed";

/** The node attributes the provider compares, as strings (unknown values count as set). */
function nodeAttributes(inputs: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const attributes = inputs?.attributes;
  if (typeof attributes === "object" && attributes !== null) {
    for (const [name, value] of Object.entries(attributes)) {
      if (typeof value === "string") out[name] = value;
    }
  }
  if (Array.isArray(inputs?.groups)) out.groups = (inputs.groups as unknown[]).map(String).join(",");
  return out;
}

/**
 * The name-service lines of a plan. `steps` are the preview's xcat:Node steps with their node
 * names; `config` is the preview's stack config; `site` is what the management node serves, or
 * undefined when review did not read it (then DNS and DHCP are said to depend on it).
 *
 * @example
 * nameServiceLines(
 *   [{ name: "n1", step: { op: "create", newState: { inputs: { attributes: { ip: "10.0.0.1" } } } } }],
 *   {},
 *   { nameservers: "10.0.0.254", master: "10.0.0.254" },
 * ); // ["hosts, DNS, DHCP entries: n1 added"]
 */
export function nameServiceLines(
  steps: ReadonlyArray<{ readonly name: string; readonly step: NodeStep }>,
  config: Readonly<Record<string, unknown>>,
  site: SiteServices | undefined,
): string[] {
  const setting = config["xcat:nameServices"];
  let stack: NameServiceChoice;
  try {
    stack = parseNameServices(typeof setting === "string" ? setting : undefined);
  } catch (error) {
    return [(error as Error).message];
  }
  // Without the site read, assume the management node serves DNS and DHCP, and say so.
  const assumed: SiteServices = site ?? { nameservers: "<xcatmaster>", dhcpsetup: "y" };
  const byServices = new Map<string, Map<Action, string[]>>();
  for (const { name, step } of steps) {
    const before = nodeAttributes(step.oldState?.inputs);
    const after = nodeAttributes(step.newState?.inputs);
    const own = (step.newState?.inputs ?? step.oldState?.inputs)?.nameServices;
    const choice = effectiveChoice(stack, own as Record<string, unknown> | undefined, assumed);
    let action: Action;
    let sent: NameServiceStep[];
    if (step.op === "create") [action, sent] = ["added", stepsForWrite(undefined, after, choice)];
    else if (step.op === "update") [action, sent] = ["rewritten", stepsForWrite(before, after, choice)];
    else if (step.op === "delete") [action, sent] = ["removed", stepsForDelete(choice)];
    else continue;
    if (sent.length === 0) continue;
    const services = sent.map((command) => SERVICE_TEXT[SERVICE_OF[command]]).join(", ");
    const actions = byServices.get(services) ?? new Map<Action, string[]>();
    actions.set(action, [...(actions.get(action) ?? []), name]);
    byServices.set(services, actions);
  }
  const lines: string[] = [];
  // Most services first (a create's hosts, DNS, DHCP before a delete's DNS, DHCP), whatever the step order.
  const ordered = [...byServices].sort(
    ([a], [b]) => b.split(",").length - a.split(",").length || a.localeCompare(b),
  );
  for (const [services, actions] of ordered) {
    const parts = (["added", "rewritten", "removed"] as const)
      .filter((action) => actions.has(action))
      .map((action) => `${compressNoderange(actions.get(action) ?? [])} ${action}`);
    lines.push(`${services} entries: ${parts.join("; ")}`);
  }
  const removed = [...byServices.values()].flatMap((actions) => actions.get("removed") ?? []);
  if (removed.length > 0 && stack.hosts) {
    lines.push(
      `/etc/hosts lines stay for ${compressNoderange(removed)}: xCAT's REST API has no makehosts -d ` +
        "(run it on the management node)",
    );
  }
  const off = (["hosts", "dns", "dhcp"] as const).filter((service) => !stack[service]);
  if (off.length > 0 && steps.some(({ step }) => ["create", "update", "delete"].includes(step.op ?? ""))) {
    const what = off.map((service) => SERVICE_TEXT[service]).join(", ");
    lines.push(
      off.length === 3
        ? `hosts, DNS, DHCP: off for this stack (xcat:nameServices none): nothing is sent; the site keeps them`
        : `${what}: off for this stack (xcat:nameServices ${showSetting(setting)}): no ${off.map((s) => `make${s}`).join(", no ")} is sent`,
    );
  }
  if (site === undefined && lines.length > 0 && (stack.dns || stack.dhcp)) {
    lines.push(
      "DNS and DHCP as listed if the management node serves them (site.nameservers, site.dhcpsetup not read)",
    );
  }
  return lines;
}

function showSetting(setting: unknown): string {
  return typeof setting === "string" ? setting : "(default)";
}
