/**
 * POST /networks: makenetworks, which creates network objects for the management node's
 * configured interfaces; the body is ignored (xcat-behavior.md §1.2).
 */
import { empty, type HandlerContext, type Output } from "../http/context";

export function makenetworks(ctx: HandlerContext): Output {
  ctx.authorize("makenetworks");
  ctx.store.services.makenetworks();
  return empty();
}
