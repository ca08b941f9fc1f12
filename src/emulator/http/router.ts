/**
 * One line per route of src/contract/routes.ts → its handler (moto's urls.py), plus the CGI's
 * resources beyond the service description (./undescribed-routes.ts). The router serves exactly
 * these rows: a handler without a row, or a row without a handler, fails at start.
 */
import { ROUTES, type RouteSpec } from "../../contract/routes";
import {
  deleteGlobalconfAttrs,
  getGlobalconf,
  getGlobalconfAttrs,
  setGlobalconfAttrs,
} from "../handlers/globalconf";
import { localres } from "../handlers/localres";
import { makenetworks } from "../handlers/networks";
import * as commands from "../handlers/node-commands";
import * as hardware from "../handlers/node-hardware";
import {
  changeObjects,
  createObjects,
  getObjectAttributes,
  getObjects,
  listObjects,
  removeObjects,
} from "../handlers/objects";
import { copycds, instance, removeInstance } from "../handlers/osimages";
import { makeDhcpService, makeDnsService, makeHostsService, slpnodes } from "../handlers/services";
import * as tables from "../handlers/tables";
import { nodeTemplates } from "../handlers/templates";
import { createToken } from "../handlers/tokens";
import * as vms from "../handlers/vms";
import type { HandlerContext, Output } from "./context";
import { UNDESCRIBED_ROUTES } from "./undescribed-routes";

export type Handler = (ctx: HandlerContext) => Output;

const HANDLERS: Record<string, Handler> = {
  "tokens.create": createToken,

  "nodes.list": listObjects("node"),
  "nodes.get": getObjects("node"),
  "nodes.update": changeObjects("node"),
  "nodes.create": createObjects("node"),
  "nodes.delete": removeObjects("node"),
  "nodes.getAttrs": getObjectAttributes("node"),
  "nodes.makeHosts": commands.makeHosts,
  "nodes.makeDns": commands.makeDns,
  "nodes.removeDns": commands.removeDns,
  "nodes.makeDhcp": commands.makeDhcp,
  "nodes.removeDhcp": commands.removeDhcp,
  "nodes.nodestat": hardware.nodestat,
  "nodes.subnodes": hardware.subnodes,
  "nodes.getPower": hardware.getPower,
  "nodes.setPower": hardware.setPower,
  "nodes.getEnergy": hardware.getEnergy,
  "nodes.setEnergy": hardware.setEnergy,
  "nodes.getEnergyAttrs": hardware.getEnergy,
  "nodes.getSp": hardware.getSp,
  "nodes.setSp": hardware.setSp,
  "nodes.getNextboot": hardware.getNextboot,
  "nodes.setNextboot": hardware.setNextboot,
  "nodes.getBootstate": hardware.getBootstate,
  "nodes.setBootstate": hardware.setBootstate,
  "nodes.getVitals": hardware.getVitals,
  "nodes.getVitalsItems": hardware.getVitals,
  "nodes.getInventory": hardware.getInventory,
  "nodes.getInventoryItems": hardware.getInventory,
  "nodes.getEventlog": hardware.getEventlog,
  "nodes.clearEventlog": hardware.clearEventlog,
  "nodes.getBeacon": hardware.getBeacon,
  "nodes.setBeacon": hardware.setBeacon,
  "nodes.updating": commands.updating,
  "nodes.filesyncing": commands.filesyncing,
  "nodes.sw": commands.software,
  "nodes.postscript": commands.postscript,
  "nodes.nodeshell": commands.nodeshell,
  "nodes.nodecopy": commands.nodecopy,
  "nodes.changeVm": vms.changeVm,
  "nodes.createVm": vms.createVm,
  "nodes.removeVm": vms.removeVm,
  "nodes.cloneVm": vms.cloneVm,
  "nodes.migrateVm": vms.migrateVm,
  "nodes.nodels": commands.nodels,

  "osimages.list": listObjects("osimage"),
  "osimages.copycds": copycds,
  "osimages.get": getObjects("osimage"),
  "osimages.update": changeObjects("osimage"),
  "osimages.create": createObjects("osimage"),
  "osimages.delete": removeObjects("osimage"),
  "osimages.getAttrs": getObjectAttributes("osimage"),
  "osimages.instance": instance,
  "osimages.removeInstance": removeInstance,

  "networks.list": listObjects("network"),
  "networks.makenetworks": makenetworks,
  "networks.get": getObjects("network"),
  "networks.update": changeObjects("network"),
  "networks.create": createObjects("network"),
  "networks.delete": removeObjects("network"),
  "networks.getAttrs": getObjectAttributes("network"),

  "policy.list": listObjects("policy"),
  "policy.get": getObjects("policy"),
  "policy.update": changeObjects("policy"),
  "policy.create": createObjects("policy"),
  "policy.delete": removeObjects("policy"),
  "policy.getAttrs": getObjectAttributes("policy"),

  "groups.list": listObjects("group"),
  "groups.get": getObjects("group"),
  "groups.update": changeObjects("group"),
  "groups.getAttrs": getObjectAttributes("group"),

  "globalconf.get": getGlobalconf,
  "globalconf.getAttrs": getGlobalconfAttrs,
  "globalconf.setAttrs": setGlobalconfAttrs,
  "globalconf.deleteAttrs": deleteGlobalconfAttrs,

  "services.makeDns": makeDnsService,
  "services.makeDhcp": makeDhcpService,
  "services.makeHosts": makeHostsService,
  "services.slpnodes": slpnodes,
  "services.slpnodesOfType": slpnodes,

  "tables.getNodeRows": tables.getNodeRows,
  "tables.setNodeRows": tables.setNodeRows,
  "tables.getNodeRowsAttrs": tables.getNodeRows,
  "tables.getAllRows": tables.getAllRows,
  "tables.getRows": tables.getRows,
  "tables.setRows": tables.setRows,
  "tables.deleteRows": tables.deleteRows,
  "tables.getRowsAttrs": tables.getRows,

  "templates.node": nodeTemplates(false),
  "templates.nodeAll": nodeTemplates(true),
  "localres.get": localres,
};

const SERVED_ROUTES: readonly RouteSpec[] = [...ROUTES, ...UNDESCRIBED_ROUTES];

export interface CompiledRoute {
  readonly spec: RouteSpec;
  readonly pattern: RegExp;
  readonly params: readonly string[];
  readonly handler: Handler;
}

function compile(spec: RouteSpec, handler: Handler): CompiledRoute {
  const params: string[] = [];
  let source = spec.path
    .replace(/[.+?^$()|[\]\\]/g, "\\$&")
    .replace(/\{(\w+)(\*?)\}/g, (_, name: string, rest: string) => {
      params.push(name);
      // `{name*}` takes the rest of the path, slashes included.
      return rest ? "(.+)" : "([^/]*)";
    });
  // xcatws.cgi's token matcher is `^/tokens` without an end anchor (§1.2).
  source = spec.id === "tokens.create" ? `^${source}(?:/.*)?$` : `^${source}$`;
  return { spec, pattern: new RegExp(source), params, handler };
}

export const COMPILED_ROUTES: readonly CompiledRoute[] = SERVED_ROUTES.map((spec) => {
  const handler = HANDLERS[spec.id];
  if (!handler) throw new Error(`no emulator handler for route ${spec.id}`);
  return compile(spec, handler);
});

for (const id of Object.keys(HANDLERS)) {
  if (!SERVED_ROUTES.some((r) => r.id === id)) throw new Error(`emulator handler ${id} has no route`);
}

export type RouteMatch =
  | { readonly kind: "route"; readonly route: CompiledRoute; readonly pathParams: Record<string, string> }
  | { readonly kind: "method"; readonly route: CompiledRoute }
  | { readonly kind: "none" };

/** Finds the route for a method and path (below /xcatws, trailing slash already removed). */
export function matchRoute(method: string, path: string): RouteMatch {
  let other: CompiledRoute | undefined;
  for (const route of COMPILED_ROUTES) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    if (route.spec.method !== method) {
      other ??= route;
      continue;
    }
    const pathParams: Record<string, string> = {};
    route.params.forEach((name, i) => {
      pathParams[name] = m[i + 1] ?? "";
    });
    return { kind: "route", route, pathParams };
  }
  return other ? { kind: "method", route: other } : { kind: "none" };
}
