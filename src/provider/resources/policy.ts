import { attributeObjectSpec } from "../attribute-object";
import { objectApi } from "../object-api";
import { priorityProblems } from "../validation";

/**
 * `xcat:Policy`: a row of xCAT's policy table, named by its priority. xCAT's POST on a policy
 * overwrites whatever is there, so create reads first: an existing policy is only taken when it
 * matches, or with `adopt`.
 */
export const policySpec = attributeObjectSpec({
  kind: "xcat:Policy",
  objectType: "policy",
  what: "policy",
  idInput: "priority",
  idProblems: (value) => priorityProblems(value, "priority"),
  fields: [],
  createMode: "check-first",
  unsetIsConflict: true,
  api: (client) => objectApi(client.policy),
});
