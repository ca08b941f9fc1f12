/**
 * POST /tokens (xcat-behavior.md §4.2): credentials from the body or the query; the policy table
 * is not consulted; 201 with `{"token":{"id","expire"}}`.
 */
import { type HandlerContext, json, type Output } from "../http/context";

export function createToken(ctx: HandlerContext): Output {
  const user = ctx.authorize("gettoken", { skipPolicy: true });
  return json({ token: ctx.store.accounts.issueToken(user) }, false);
}
