/**
 * client.policy: the policy table's rules, named by priority ("1", "1.2", ...).
 */

import type { Engine } from "../engine";
import { createXcatError, isNotFound } from "../errors";
import { toObjectWriteBody } from "../quirks";
import type { AttributeInput, CallOptions } from "../types";
import { type DeleteOptions, NamedObjects } from "./objects";

/**
 * Policy rules. Changing rule "1" away from `name=root` can lock root out of xcatws.
 *
 * @example
 * ```ts
 * await client.policy.create("6", { name: "alice", rule: "allow" });
 * ```
 */
export class PolicyApi extends NamedObjects {
  constructor(engine: Engine) {
    super(engine, { prefix: "policy", param: "policy_priority", what: "policy priority" });
  }

  /**
   * Creates a rule. xcatws's POST here runs chdef, which would silently overwrite an existing
   * rule, so the client reads first and throws XcatAlreadyExistsError for an existing priority.
   * The POST itself is an upsert and is retried like a PUT.
   *
   * @example
   * ```ts
   * await client.policy.create("7", { name: "bob", commands: "lsdef", rule: "allow" });
   * ```
   */
  async create(priority: string, attrs: AttributeInput, options?: CallOptions): Promise<void> {
    const params = this.one(priority);
    const exists = await this.get(priority, options).then(
      () => true,
      (error: unknown) => {
        if (isNotFound(error)) return false;
        throw error;
      },
    );
    if (exists) {
      throw createXcatError(
        "XCAT_ALREADY_EXISTS",
        `policy ${priority} already exists (POST /policy/${params.policy_priority} would overwrite it; use update())`,
        { method: "POST" },
      );
    }
    await this.engine.call({
      route: "policy.create",
      params,
      body: toObjectWriteBody(attrs),
      kind: "write",
      options,
    });
  }

  /**
   * Removes rules (rmdef).
   *
   * @example
   * ```ts
   * await client.policy.delete("7");
   * ```
   */
  delete(priorities: string | readonly string[], options?: DeleteOptions): Promise<void> {
    return this.deleteObjects(priorities, options);
  }
}
