/**
 * VM resources: PUT/POST/DELETE /nodes/{nr}/vm (chvm, mkvm, rmvm), vmclone and vmmigrate
 * (xcat-behavior.md §6). Unknown body keys are ignored; flags are set only by the exact "yes".
 */
import { empty, type HandlerContext, json, type Output, stringParam, verifiedNodes } from "../http/context";
import { lackOfOperationData } from "../http/errors";

function onNodes<T>(ctx: HandlerContext, command: string, args: string[], fn: (nodes: string[]) => T): T {
  const noderange = ctx.pathParams.noderange ?? "";
  ctx.authorize(command, { noderange, args });
  return fn(verifiedNodes(ctx, noderange));
}

function optional(ctx: HandlerContext, key: string): Record<string, string> {
  const value = stringParam(ctx, key);
  return value ? { [key]: value } : {};
}

export function changeVm(ctx: HandlerContext): Output {
  const resize = stringParam(ctx, "resizedisk")?.replace(":", "=");
  const options = {
    ...(stringParam(ctx, "memorysize") ? { memory: stringParam(ctx, "memorysize") ?? "" } : {}),
    ...(stringParam(ctx, "cpucount") ? { cpus: stringParam(ctx, "cpucount") ?? "" } : {}),
    ...optional(ctx, "adddisk"),
    ...optional(ctx, "purgedisk"),
    ...(resize ? { resize } : {}),
  };
  onNodes(ctx, "chvm", Object.values(options), (nodes) => ctx.store.vms.chvm(nodes, options));
  return empty();
}

export function createVm(ctx: HandlerContext): Output {
  const options = {
    ...(stringParam(ctx, "cpucount") ? { cpus: stringParam(ctx, "cpucount") ?? "" } : {}),
    ...(stringParam(ctx, "memorysize") ? { memory: stringParam(ctx, "memorysize") ?? "" } : {}),
    ...optional(ctx, "disksize"),
    ...optional(ctx, "master"),
    force: stringParam(ctx, "force") === "yes",
  };
  onNodes(ctx, "mkvm", [], (nodes) => ctx.store.vms.mkvm(nodes, options));
  return empty();
}

export function removeVm(ctx: HandlerContext): Output {
  const options = { purge: stringParam(ctx, "purge") === "yes", force: stringParam(ctx, "force") === "yes" };
  onNodes(ctx, "rmvm", [], (nodes) => ctx.store.vms.rmvm(nodes, options));
  return empty();
}

/** clonevm -t <tomaster> or -b <frommaster>; neither is 400 Lack of operation data. */
export function cloneVm(ctx: HandlerContext): Output {
  const tomaster = stringParam(ctx, "tomaster");
  const frommaster = stringParam(ctx, "frommaster");
  if (!tomaster && !frommaster) throw lackOfOperationData();
  const options = {
    ...(tomaster ? { tomaster } : { frommaster: frommaster ?? "" }),
    detach: stringParam(ctx, "detach") === "yes",
  };
  const messages = onNodes(ctx, "clonevm", [], (nodes) => ctx.store.vms.clonevm(nodes, options));
  return json(Object.fromEntries([...messages].map(([n, m]) => [n, { vmclone: m }])));
}

export function migrateVm(ctx: HandlerContext): Output {
  const target = stringParam(ctx, "target");
  if (!target) throw lackOfOperationData();
  const messages = onNodes(ctx, "rmigrate", [target], (nodes) => ctx.store.vms.rmigrate(nodes, target));
  return json(Object.fromEntries([...messages].map(([n, m]) => [n, { vmmigrate: m }])));
}
