import { attributeObjectSpec } from "../attribute-object";
import { objectApi } from "../object-api";
import {
  failuresOn,
  ipv4Problems,
  nameProblems,
  netmaskProblems,
  networkAddressProblems,
} from "../validation";

/**
 * `xcat:Network`: a network definition. `net` and `mask` are its own inputs because xCAT needs
 * both to create one and refuses two networks with the same pair.
 */
export const networkSpec = attributeObjectSpec({
  kind: "xcat:Network",
  objectType: "network",
  what: "network",
  idInput: "name",
  idProblems: (value) => nameProblems(value, "name"),
  fields: [
    {
      input: "net",
      attribute: "net",
      required: true,
      problems: (value) => ipv4Problems(value, "net"),
      toAttribute: String,
      fromAttribute: (value) => value,
    },
    {
      input: "mask",
      attribute: "mask",
      required: true,
      problems: (value) => netmaskProblems(value, "mask"),
      toAttribute: String,
      fromAttribute: (value) => value,
    },
  ],
  crossProblems: (news) => failuresOn("net", networkAddressProblems(news.net, news.mask, "net")),
  createMode: "create",
  unsetIsConflict: true,
  api: (client) => objectApi(client.networks),
});
