import { attributeObjectSpec } from "../attribute-object";
import { nameProblems } from "../validation";

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
