/**
 * client.groups: node groups. xcatws has no create or delete for groups: a static group exists
 * while some node lists it in `groups`, or after an update writes its attributes.
 */
import type { Engine } from "../engine";
import { NamedObjects } from "./objects";

/**
 * Node groups and their inherited attributes. `members` is always present ("" when empty).
 *
 * @example
 * ```ts
 * await client.groups.update("compute", { mgt: "ipmi", netboot: "xnba" });
 * const { members } = await client.groups.get("compute");
 * ```
 */
export class GroupsApi extends NamedObjects {
  constructor(engine: Engine) {
    super(engine, { prefix: "groups", param: "groupname", what: "group name" });
  }

  /** Never: lsdef computes a group's `members` from the nodes that name it, so it differs per group. */
  protected override sharesAdditions(): Promise<boolean> {
    return Promise.resolve(false);
  }
}
