/**
 * Global configuration: the site table as the single object `clustersite` (sitehdl,
 * xcat-behavior.md §1.2 globalconf and §5.6). The attribute list of the PUT URL is ignored; only
 * body keys are set, with `null` clearing and "0" kept. DELETE with one attribute removes that
 * site row; a list with a comma names no key and silently changes nothing.
 */
import { empty, type HandlerContext, json, type Output } from "../http/context";
import { perlString } from "../http/operands";

export function getGlobalconf(ctx: HandlerContext): Output {
  ctx.authorize("lsdef", { args: ["-t", "site", "clustersite"] });
  return json(Object.fromEntries(ctx.store.definitions.show("site", ["clustersite"])));
}

/** An attribute that is not set gives an empty body (§9.7). */
export function getGlobalconfAttrs(ctx: HandlerContext): Output {
  const attrs = (ctx.pathParams.attrs ?? "").split(/[;,]/).filter((a) => a !== "");
  ctx.authorize("lsdef", { args: ["-t", "site", "clustersite", "-i", attrs.join(",")] });
  const site = ctx.store.definitions.showAttributes("site", ["clustersite"], attrs).get("clustersite") ?? {};
  return Object.keys(site).length === 0 ? empty() : json({ clustersite: site });
}

export function setGlobalconfAttrs(ctx: HandlerContext): Output {
  const assignments = [...ctx.params].map(([k, v]) => [k, v === null ? "" : perlString(v)] as const);
  ctx.authorize("chdef", { args: ["-t", "site", ...assignments.map(([k, v]) => `${k}=${v}`)] });
  ctx.store.definitions.change("site", ["clustersite"], assignments);
  return empty();
}

export function deleteGlobalconfAttrs(ctx: HandlerContext): Output {
  const list = ctx.pathParams.attrs ?? "";
  const extra = [...ctx.params].map(([k, v]) => [k, v === null ? "" : perlString(v)] as const);
  ctx.authorize("chdef", { args: ["-t", "site", `${list}=`, ...extra.map(([k, v]) => `${k}=${v}`)] });
  // `a,b=` is one operand naming the key "a,b", which matches no row.
  const assignments = [...(list.includes(",") ? [] : [[list, ""] as const]), ...extra];
  if (assignments.length > 0) ctx.store.definitions.change("site", ["clustersite"], assignments);
  return empty();
}
