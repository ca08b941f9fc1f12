import { attributeObjectSpec } from "../attribute-object";
import { failuresOn, isPlainObject, nameProblems } from "../validation";

/**
 * A group with nothing to hold is refused before anything is sent: xCAT keeps a group's attributes
 * and its nodegroup row, and chdef with no attr=val changes nothing and says nothing
 * (DBobjectdefs.pm:2417-2474), so its PUT "succeeded" and the read after it found no group.
 */
function nothingToHoldProblems(news: Readonly<Record<string, unknown>>) {
  const empty = (value: unknown) =>
    value === undefined || (isPlainObject(value) && Object.keys(value).length === 0);
  if (!isPlainObject(news.attributes) || !empty(news.attributes) || !empty(news.secretAttributes)) return [];
  return failuresOn("attributes", [
    `attributes must set at least one attribute of the group '${String(news.name)}': xCAT keeps no group ` +
      "without attributes (its chdef with none changes nothing). Membership comes from each node's `groups`, " +
      "and a group exists as soon as a node names it, so a group that only gathers nodes needs no Group resource.",
  ]);
}

/**
 * `xcat:Group`: attributes that member nodes inherit (node-table rows keyed by the group's name,
 * plus the nodegroup row). Membership comes from the nodes' `groups`. xCAT's REST API has no
 * POST or DELETE for groups: PUT defines one, and delete clears the managed attributes and then
 * removes the group's definition row.
 */
export const groupSpec = attributeObjectSpec({
  kind: "xcat:Group",
  objectType: "group",
  what: "group",
  idInput: "name",
  idProblems: (value) => nameProblems(value, "name"),
  fields: [],
  createMode: "check-first",
  unsetIsConflict: false,
  deleteByClearing: true,
  crossProblems: nothingToHoldProblems,
  api: (client) => ({
    get: (name) => client.groups.get(name),
    create: (name, attributes) => client.groups.update(name, attributes),
    reportAfterCreate: (name, attributes) => client.groups.reportAfterCreate(name, attributes),
    update: (name, attributes) => client.groups.update(name, attributes),
    reportAfterUpdate: (name, attributes, before) =>
      client.groups.reportAfterUpdate(name, attributes, before),
    delete: async () => {},
    // A group's attributes are node attributes (Schema.pm defspec group): ask about nodes.
    knowsAttribute: (attribute) => client.nodes.knowsAttribute(attribute),
  }),
  afterDelete: (client, name) => client.tables.deleteRows("nodegroup", { groupname: name }),
});
