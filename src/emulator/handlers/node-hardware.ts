/**
 * Node hardware resources: nodestat, subnodes, power, energy, sp, nextboot, bootstate, vitals,
 * inventory, eventlog, beacon (actionhdl/actionout, xcat-behavior.md §1.2, §2.3). GETs answer
 * `{node:{key:value}}`; PUTs answer nothing; a PUT without its action is the CGI's 404
 * `Missed Action.`, before any authentication.
 */
import { empty, type HandlerContext, json, type Output, stringParam, verifiedNodes } from "../http/context";
import { missedAction } from "../http/errors";
import { perlString } from "../http/operands";
import type { NodeResults } from "../store/node-actions";

function noderange(ctx: HandlerContext): string {
  return ctx.pathParams.noderange ?? "";
}

/** Runs an action command on the verified noderange, after authorization. */
function onNodes<T>(ctx: HandlerContext, command: string, args: string[], fn: (nodes: string[]) => T): T {
  ctx.authorize(command, { noderange: noderange(ctx), args });
  return fn(verifiedNodes(ctx, noderange(ctx)));
}

function results(map: NodeResults): Output {
  return json(Object.fromEntries(map));
}

export function nodestat(ctx: HandlerContext): Output {
  return results(onNodes(ctx, "nodestat", [], (nodes) => ctx.store.actions.nodestat(nodes)));
}

/** rscan -z: stanza output parsed into objects; nothing found gives an empty body. */
export function subnodes(ctx: HandlerContext): Output {
  const found = onNodes(ctx, "rscan", ["-z"], (nodes) => ctx.store.actions.subnodes(nodes));
  return found.size === 0 ? empty() : json(Object.fromEntries(found));
}

export function getPower(ctx: HandlerContext): Output {
  return results(onNodes(ctx, "rpower", ["stat"], (nodes) => ctx.store.actions.power(nodes, "stat")));
}

/** rpower <action>: the value is not validated by the CGI; the plugin rejects what it cannot do. */
export function setPower(ctx: HandlerContext): Output {
  const action = stringParam(ctx, "action");
  if (!action) throw missedAction();
  onNodes(ctx, "rpower", [action], (nodes) => ctx.store.actions.power(nodes, action));
  return empty();
}

export function getEnergy(ctx: HandlerContext): Output {
  const list = ctx.pathParams.attrs;
  return results(
    onNodes(ctx, "renergy", [list ?? "all"], (nodes) =>
      ctx.store.actions.energy(nodes, list?.replaceAll(",", ";")),
    ),
  );
}

/** renergy <k>=<v> with only the first body key (§1.2). */
export function setEnergy(ctx: HandlerContext): Output {
  const first = [...ctx.params][0];
  if (!first) throw missedAction();
  const [key, value] = first;
  const text = perlString(value);
  onNodes(ctx, "renergy", [`${key}=${text}`], (nodes) => ctx.store.actions.setEnergy(nodes, key, text));
  return empty();
}

export function getSp(ctx: HandlerContext): Output {
  const item = ctx.pathParams.item ?? "";
  return results(
    onNodes(ctx, "rspconfig", [item], (nodes) => ctx.store.actions.serviceProcessor(nodes, item)),
  );
}

/** rspconfig <item>=<value>: body `value`, or every body pair as k=v — both forms work (§1.2). */
export function setSp(ctx: HandlerContext): Output {
  const item = ctx.pathParams.item ?? "";
  const settings = new Map<string, string>();
  const value = ctx.params.get("value");
  if (value !== undefined && value !== null) settings.set(item, perlString(value));
  else for (const [k, v] of ctx.params) settings.set(k, perlString(v));
  const args = [...settings].map(([k, v]) => `${k}=${v}`);
  onNodes(ctx, "rspconfig", args, (nodes) => ctx.store.actions.setServiceProcessor(nodes, settings));
  return empty();
}

export function getNextboot(ctx: HandlerContext): Output {
  return results(onNodes(ctx, "rsetboot", ["stat"], (nodes) => ctx.store.actions.nextboot(nodes)));
}

export function setNextboot(ctx: HandlerContext): Output {
  const order = stringParam(ctx, "order");
  if (!order) throw missedAction();
  onNodes(ctx, "rsetboot", [order], (nodes) => ctx.store.actions.nextboot(nodes, order));
  return empty();
}

/** nodeset stat, answered under the resource name `bootstate` (§1.2 note ‡, §9.7). */
export function getBootstate(ctx: HandlerContext): Output {
  const states = onNodes(ctx, "nodeset", ["stat"], (nodes) => ctx.store.provisioning.bootstate(nodes));
  return json(Object.fromEntries([...states].map(([n, s]) => [n, { bootstate: s }])));
}

/** nodeset <action>, or the first body key: `state` → its value, anything else → key=value. */
export function setBootstate(ctx: HandlerContext): Output {
  const action = stringParam(ctx, "action");
  const first = [...ctx.params][0];
  if (!action && !first) throw missedAction();
  let request: { state?: string; osimage?: string };
  let arg: string;
  if (action) {
    request = action.startsWith("osimage=") ? { osimage: action.slice(8) } : { state: action };
    arg = action;
  } else {
    const [key, value] = first ?? ["", ""];
    const text = perlString(value);
    request =
      key === "state" ? { state: text } : key === "osimage" ? { osimage: text } : { state: `${key}=${text}` };
    arg = key === "state" ? text : `${key}=${text}`;
  }
  onNodes(ctx, "nodeset", [arg], (nodes) => {
    try {
      ctx.store.provisioning.setBootstate(nodes, request);
    } finally {
      // nodeset ends by running makedhcp for its nodes (-d for offline) unless site.dhcpsetup says
      // n (xnba.pm master:857-872, grub2.pm master:792-809).
      const dhcpsetup = ctx.store.db.first("site", { key: "dhcpsetup" })?.value ?? "";
      const offline = request.state === "offline";
      if (offline || !/0|n|N/.test(dhcpsetup)) ctx.store.services.makedhcp(nodes, offline);
    }
  });
  return empty();
}

/** rvitals: the keyword list is split on ';' by the CGI; ',' is accepted as well. */
export function getVitals(ctx: HandlerContext): Output {
  const list = ctx.pathParams.item;
  return results(onNodes(ctx, "rvitals", [list ?? "all"], (nodes) => ctx.store.actions.vitals(nodes, list)));
}

export function getInventory(ctx: HandlerContext): Output {
  const list = ctx.pathParams.item;
  return results(onNodes(ctx, "rinv", [list ?? "all"], (nodes) => ctx.store.actions.inventory(nodes, list)));
}

export function getEventlog(ctx: HandlerContext): Output {
  return results(onNodes(ctx, "reventlog", ["all"], (nodes) => ctx.store.actions.eventlog(nodes)));
}

export function clearEventlog(ctx: HandlerContext): Output {
  onNodes(ctx, "reventlog", ["clear"], (nodes) => ctx.store.actions.eventlog(nodes, true));
  return empty();
}

export function getBeacon(ctx: HandlerContext): Output {
  return results(onNodes(ctx, "rbeacon", ["stat"], (nodes) => ctx.store.actions.beacon(nodes)));
}

/** rbeacon <action>; the CGI does not check it, so a missing action reaches the plugin. */
export function setBeacon(ctx: HandlerContext): Output {
  const action = stringParam(ctx, "action") ?? "";
  onNodes(ctx, "rbeacon", [action], (nodes) => ctx.store.actions.beacon(nodes, action));
  return empty();
}
