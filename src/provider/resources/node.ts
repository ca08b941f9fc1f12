import { attributeObjectSpec } from "../attribute-object";
import { nameServicesInputProblems } from "../name-services";
import {
  announceNameServices,
  nameServicesAfterWrite,
  nameServicesBeforeDelete,
} from "../node-name-services";
import { nodeImportedAttributes, nodeOwnReported } from "../node-own-values";
import { objectApi } from "../object-api";
import { nameProblems, nodeNameProblems } from "../validation";

/**
 * `xcat:Node`: a node definition (mkdef/chdef/rmdef -t node). Its `groups` input is xCAT's
 * required `groups` attribute, kept as a list because its order decides which group's values the
 * node inherits.
 */
export const nodeSpec = attributeObjectSpec({
  kind: "xcat:Node",
  objectType: "node",
  what: "node",
  idInput: "name",
  idProblems: (value) => nodeNameProblems(value, "name"),
  fields: [
    {
      input: "groups",
      attribute: "groups",
      required: true,
      problems(value) {
        if (!Array.isArray(value) || value.length === 0) {
          return ['groups must be a non-empty list of group names (xCAT needs at least one, e.g. ["all"])'];
        }
        return value.flatMap((group, index) => nameProblems(group, `groups[${index}]`));
      },
      // During preview the whole list may be Pulumi's unknown value, a string.
      toAttribute: (value) => (Array.isArray(value) ? value.join(",") : String(value)),
      fromAttribute: (value) => value.split(",").filter((group) => group.length > 0),
    },
  ],
  extraInputs: [{ input: "nameServices", problems: nameServicesInputProblems }],
  announceWrite: announceNameServices,
  afterWrite: nameServicesAfterWrite,
  beforeDelete: nameServicesBeforeDelete,
  createMode: "create",
  unsetIsConflict: true,
  api: (client) => objectApi(client.nodes),
  ownReported: nodeOwnReported,
  importedAttributes: nodeImportedAttributes,
});
