/**
 * Osimage resources beyond lsdef/mkdef/chdef/rmdef: POST /osimages (copycds from an ISO, or
 * imgimport of a bundle) and the image instance (genimage, packimage, imgexport, rmimage).
 * The instance resource has no output handler in the CGI, so it answers the raw filtered xcatd
 * messages (`[{"info":[...],"xcatdsource":["<mn>"]}]`, xcat-behavior.md §1.2).
 */
import { INVALID_SOURCE, incorrectAction } from "../../contract/messages";
import { empty, type HandlerContext, json, type Output, stringParam } from "../http/context";
import { missedAction, WebError } from "../http/errors";
import { perlString } from "../http/operands";
import { MN_HOSTNAME } from "../store/seed";

/** Only the first element of `params` is used; each `k: v` becomes the args `k v`. */
function firstParams(ctx: HandlerContext): Map<string, string> {
  const params = ctx.params.get("params");
  const first: unknown = Array.isArray(params) ? params[0] : undefined;
  const out = new Map<string, string>();
  if (first && typeof first === "object" && !Array.isArray(first)) {
    for (const [k, v] of Object.entries(first as Record<string, unknown>)) out.set(k, perlString(v));
  }
  return out;
}

function raw(info: readonly string[]): Output {
  return json([{ info: [...info], xcatdsource: [MN_HOSTNAME] }], false);
}

/** POST /osimages: `iso` → copycds, else `file` → imgimport, else 404 Invalid source. */
export function copycds(ctx: HandlerContext): Output {
  const iso = stringParam(ctx, "iso");
  const file = stringParam(ctx, "file");
  if (!iso && !file) throw new WebError(404, INVALID_SOURCE);
  const params = firstParams(ctx);
  const args = [...params].flat();
  if (iso) {
    ctx.authorize("copycds", { args: [iso, ...args] });
    ctx.store.provisioning.copycds(iso, params);
  } else if (file) {
    ctx.authorize("imgimport", { args: [file, ...args] });
    ctx.store.provisioning.imgimport(file);
  }
  return empty();
}

const INSTANCE_COMMANDS = { gen: "genimage", pack: "packimage", export: "imgexport" } as const;

/** POST /osimages/{img}/instance {action: gen|pack|export}. */
export function instance(ctx: HandlerContext): Output {
  const action = stringParam(ctx, "action");
  if (!action) throw missedAction();
  if (action !== "gen" && action !== "pack" && action !== "export")
    throw new WebError(400, incorrectAction(action));
  const image = ctx.pathParams.imgname ?? "";
  ctx.authorize(INSTANCE_COMMANDS[action], { args: [image, ...[...firstParams(ctx)].flat()] });
  return raw(ctx.store.provisioning.instance(image, action));
}

/** DELETE /osimages/{img}/instance: rmimage. */
export function removeInstance(ctx: HandlerContext): Output {
  const image = ctx.pathParams.imgname ?? "";
  ctx.authorize("rmimage", { args: [image] });
  return raw(ctx.store.provisioning.removeInstance(image));
}
