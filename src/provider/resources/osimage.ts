import { attributeObjectSpec } from "../attribute-object";
import { objectApi } from "../object-api";
import { nameProblems } from "../validation";

/** `xcat:Osimage`: an OS image definition (lsdef -t osimage). */
export const osimageSpec = attributeObjectSpec({
  kind: "xcat:Osimage",
  objectType: "osimage",
  what: "OS image",
  idInput: "name",
  idProblems: (value) => nameProblems(value, "name"),
  fields: [],
  createMode: "create",
  unsetIsConflict: true,
  api: (client) => objectApi(client.osimages),
});
