/**
 * The lsdef/mkdef/chdef/rmdef resources shared by nodes, osimages, networks, policy and groups
 * (defhdl, xcat-behavior.md §1.2-1.4): list, get (ALLRESOURCES = every object), attrs, PUT
 * (chdef, creates), POST (mkdef; chdef for policy), DELETE (rmdef, not all-or-nothing).
 */
import { NO_OBJECT_DEFINITIONS_TO_DISPLAY } from "../../contract/messages";
import type { ObjectType } from "../../contract/schema";
import { versionBehaviour } from "../../contract/xcat-versions";
import { definitionNames, empty, type HandlerContext, json, type Output } from "../http/context";
import { allResourcesGetOnly } from "../http/errors";
import { toOperands } from "../http/operands";
import type { ObjectAttributes } from "../store/object-reader";

const ALL = "ALLRESOURCES";

/** The path parameter naming the object(s) of each type, as in routes.ts. */
const NAME_PARAM: Partial<Record<ObjectType, string>> = {
  node: "noderange",
  osimage: "imgname",
  network: "netname",
  policy: "policy_priority",
  group: "groupname",
};

function objectNames(ctx: HandlerContext, type: ObjectType): string[] | undefined {
  const raw = ctx.pathParams[NAME_PARAM[type] ?? ""] ?? "";
  if (raw === ALL) {
    if (ctx.method !== "GET") throw allResourcesGetOnly();
    return undefined;
  }
  // lsdef expands noderanges for nodes; other types are split on ','.
  return type === "node" ? definitionNames(ctx, raw) : raw.split(",").filter((n) => n !== "");
}

/** How this release's defhdl passes empty body values (contract/xcat-versions.ts). */
function objectBodyRules(ctx: HandlerContext): { keepEmptyValues: boolean } {
  return { keepEmptyValues: versionBehaviour(ctx.store.version).objectBodyKeepsEmptyValues };
}

function toBody(objects: Map<string, ObjectAttributes>): unknown {
  if (objects.size === 0) return { info: NO_OBJECT_DEFINITIONS_TO_DISPLAY };
  return Object.fromEntries(objects);
}

/** GET /<type>s: names sorted as strings, or the one-message list (§9.3). */
export function listObjects(type: ObjectType) {
  return (ctx: HandlerContext): Output => {
    ctx.authorize("lsdef");
    return json(ctx.store.definitions.list(type));
  };
}

/** GET /<type>s/{name}. */
export function getObjects(type: ObjectType) {
  return (ctx: HandlerContext): Output => {
    const names = objectNames(ctx, type);
    ctx.authorize("lsdef", { args: ["-t", type, ...(names ? ["-o", names.join(",")] : ["-l"])] });
    return json(toBody(ctx.store.definitions.show(type, names)));
  };
}

/** GET /<type>s/{name}/attrs/{a,b}: `;` in the list also separates (CGI turns it into ','). */
export function getObjectAttributes(type: ObjectType) {
  return (ctx: HandlerContext): Output => {
    const names = objectNames(ctx, type);
    const attrs = (ctx.pathParams.attrs ?? "").split(/[;,]/).filter((a) => a !== "");
    ctx.authorize("lsdef", { args: ["-t", type, "-i", attrs.join(",")] });
    return json(toBody(ctx.store.definitions.showAttributes(type, names, attrs)));
  };
}

/** PUT /<type>s/{name}: chdef, which creates missing objects. */
export function changeObjects(type: ObjectType) {
  return (ctx: HandlerContext): Output => {
    const raw = ctx.pathParams[NAME_PARAM[type] ?? ""] ?? "";
    if (raw === ALL) throw allResourcesGetOnly();
    const { assignments } = toOperands(ctx.params, objectBodyRules(ctx));
    ctx.authorize("chdef", { args: assignments.map(([a, v]) => `${a}=${v}`) });
    const names = objectNames(ctx, type) ?? [];
    ctx.store.definitions.change(type, names, assignments);
    return empty();
  };
}

/** POST /<type>s/{name}: mkdef (`-f` through options replaces); policy uses chdef (§1.2). */
export function createObjects(type: ObjectType) {
  return (ctx: HandlerContext): Output => {
    const raw = ctx.pathParams[NAME_PARAM[type] ?? ""] ?? "";
    if (raw === ALL) throw allResourcesGetOnly();
    const { assignments, options } = toOperands(ctx.params, objectBodyRules(ctx));
    const upsert = type === "policy";
    ctx.authorize(upsert ? "chdef" : "mkdef", {
      args: [...options, ...assignments.map(([a, v]) => `${a}=${v}`)],
    });
    const names = objectNames(ctx, type) ?? [];
    if (upsert) ctx.store.definitions.change(type, names, assignments);
    else {
      const force = options.includes("-f") || options.includes("--force");
      const at = options.indexOf("--template");
      // The CGI passes the option's value only when it is true in Perl (xcatws.cgi:2076-2083).
      const next = at >= 0 ? options[at + 1] : undefined;
      const template = at < 0 ? undefined : next !== undefined && !next.startsWith("-") ? next : "";
      ctx.store.definitions.create(type, names, assignments, {
        force,
        ...(template !== undefined ? { template } : {}),
      });
    }
    return empty();
  };
}

/** DELETE /<type>s/{name}: rmdef; existing objects go even when others are missing (§9.6). */
export function removeObjects(type: ObjectType) {
  return (ctx: HandlerContext): Output => {
    const raw = ctx.pathParams[NAME_PARAM[type] ?? ""] ?? "";
    if (raw === ALL) throw allResourcesGetOnly();
    ctx.authorize("rmdef");
    ctx.store.definitions.remove(type, objectNames(ctx, type) ?? []);
    return empty();
  };
}
