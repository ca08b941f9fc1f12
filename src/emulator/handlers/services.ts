/**
 * /services: makedns -n, makedhcp -n, makehosts for every node, and lsslp (xcat-behavior.md
 * §1.2 services). lsslp with no responses answers an empty body.
 */
import { empty, type HandlerContext, json, type Output } from "../http/context";

export function makeDnsService(ctx: HandlerContext): Output {
  ctx.authorize("makedns", { args: ["-n"] });
  ctx.store.services.makedns(undefined);
  return empty();
}

export function makeDhcpService(ctx: HandlerContext): Output {
  ctx.authorize("makedhcp", { args: ["-n"] });
  ctx.store.services.makedhcp(undefined);
  return empty();
}

export function makeHostsService(ctx: HandlerContext): Output {
  ctx.authorize("makehosts");
  ctx.store.services.makehosts();
  return empty();
}

export function slpnodes(ctx: HandlerContext): Output {
  const type = ctx.pathParams.item;
  ctx.authorize("lsslp", { args: ["-z", ...(type ? ["-s", type] : [])] });
  const found = ctx.store.services.slpnodes(type);
  return found.size === 0 ? empty() : json(Object.fromEntries(found));
}
