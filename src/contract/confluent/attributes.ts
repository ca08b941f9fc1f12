/**
 * Confluent's node attribute schema: every attribute a node or group may hold, as
 * confluent_server/confluent/config/attributes.py defines it at release 3.15.6 (the `node` dict;
 * `line` is the line of the attribute's key there). Confluent refuses any other name except
 * `custom.*`, and names under `net.` and `power.` match by their first and last parts
 * (`net.<name>.hwaddr` is `net.hwaddr`; configmanager.py:559 _get_valid_attrname).
 *
 * Extracted from the release's source (names, value lists and types only; the descriptions are
 * Confluent's and stay there).
 */

/** One attribute of the schema. */
export interface ConfluentAttributeSpec {
  /** Line of the attribute in config/attributes.py at 3.15.6. */
  readonly line: number;
  /** Python type enforced by configmanager.py attribute_is_invalid (list: groups; bool: net.bootable). */
  readonly type?: "list" | "bool";
  /** Values a node update accepts (messages.py:861 InputAttributes.get_attributes); "" and unset always pass. */
  readonly validValues?: readonly string[];
  /** Comma-separated members each of which must be in the list (messages.py:867). */
  readonly validList?: readonly string[];
  readonly default?: unknown;
}

export const CONFLUENT_RELEASE = "3.15.6";

export const CONFLUENT_NODE_ATTRIBUTES: Readonly<Record<string, ConfluentAttributeSpec>> = {
  groups: { line: 91, type: "list" },
  type: { line: 96, validValues: ["switch", "server", "rackmount", "dense", "enclosure", ""] },
  "crypted.rootpassword": { line: 100 },
  "crypted.grubpassword": { line: 107 },
  "crypted.selfapikey": { line: 110 },
  "trusted.subnets": { line: 113 },
  "deployment.encryptboot": { line: 116, validValues: ["tpm2", "none", ""] },
  "deployment.apiarmed": { line: 127, validValues: ["once", "continuous", ""] },
  "deployment.sealedapikey": { line: 138 },
  "collective.manager": { line: 202 },
  "collective.managercandidates": { line: 210 },
  "deployment.client_ip": { line: 218 },
  "deployment.lock": { line: 221, validList: ["autolock", "locked"] },
  "deployment.pendingprofile": { line: 228 },
  "deployment.stagedprofile": { line: 233 },
  "deployment.profile": { line: 239 },
  "deployment.state": { line: 246 },
  "deployment.state_detail": { line: 249 },
  "deployment.useinsecureprotocols": { line: 252, validList: ["always", "firmware", "never"] },
  "discovery.passwordrules": { line: 264 },
  "discovery.nodeconfig": { line: 272 },
  "discovery.policy": { line: 276, validList: ["manual", "permissive", "pxe", "open", "verified"] },
  "info.note": { line: 286 },
  "location.height": { line: 293 },
  "location.room": { line: 296 },
  "location.row": { line: 299 },
  "location.rack": { line: 302 },
  "location.u": { line: 305 },
  "console.logging": { line: 372, validValues: ["full", "memory", "interactive", "none"] },
  "console.method": {
    line: 377,
    validValues: ["ssh", "ipmi", "openbmc", "megasol", "tsmsol", "vcenter", "proxmox"],
  },
  "hardwaremanagement.manager": { line: 405 },
  "hardwaremanagement.manager_tls_name": { line: 411 },
  "hardwaremanagement.method": { line: 417 },
  "hardwaremanagement.port": { line: 422 },
  "hardwaremanagement.vlan": { line: 429 },
  "enclosure.bay": { line: 434 },
  "enclosure.extends": { line: 438 },
  "enclosure.manager": { line: 443 },
  "id.index": { line: 453 },
  "id.model": { line: 456 },
  "id.serial": { line: 462 },
  "id.uuid": { line: 465 },
  "net.bootable": { line: 475, type: "bool" },
  "net.connection_name": { line: 480 },
  "net.interface_names": { line: 486 },
  "net.mtu": { line: 493 },
  "net.vlan_id": { line: 496 },
  "net.ipv4_address": { line: 500 },
  "net.ipv4_method": { line: 508, validValues: ["dhcp", "static", "firmwaredhcp", "firmwarenone", "none"] },
  "net.ipv4_gateway": { line: 517 },
  "net.ipv6_address": { line: 522 },
  "net.ipv6_method": { line: 530, validValues: ["dhcp", "static", "firmwaredhcp", "firmwarenone", "none"] },
  "net.ipv6_gateway": { line: 539 },
  "net.hwaddr": { line: 544 },
  "net.hostname": { line: 548 },
  "net.switch": { line: 557 },
  "net.switchport": { line: 565 },
  "ntp.servers": { line: 570 },
  "net.team_mode": { line: 576, validValues: ["lacp", "loadbalance", "roundrobin", "activebackup", "none"] },
  "power.pdu": { line: 583 },
  "power.outlet": { line: 586 },
  "secret.selfapiarmtoken": { line: 604 },
  "secret.snmpcommunity": { line: 607 },
  "snmp.privacyprotocol": { line: 611 },
  "secret.ipmikg": { line: 631 },
  "secret.hardwaremanagementuser": { line: 637 },
  "secret.hardwaremanagementpassword": { line: 641 },
  "ssh.trustnodes": { line: 645 },
  "pubkeys.addpolicy": { line: 652 },
  "pubkeys.tls_hardwaremanager": { line: 662 },
  "pubkeys.tls": { line: 666 },
  "pubkeys.ssh": { line: 669 },
  "dns.domain": { line: 673 },
  "dns.servers": { line: 676 },
};

/**
 * Short names Confluent accepts in place of schema names, on nodes and groups alike
 * (configmanager.py:124 _attraliases).
 */
export const CONFLUENT_ATTRIBUTE_ALIASES: Readonly<Record<string, string>> = {
  bmc: "hardwaremanagement.manager",
  bmcuser: "secret.hardwaremanagementuser",
  switchuser: "secret.hardwaremanagementuser",
  bmcpass: "secret.hardwaremanagementpassword",
  switchpass: "secret.hardwaremanagementpassword",
};

/** The schema name an attribute name is checked against (configmanager.py:559 _get_valid_attrname). */
export function schemaNameOf(attribute: string): string {
  if (attribute.startsWith("net.") || attribute.startsWith("power.")) {
    const parts = attribute.split(".");
    return `${parts[0]}.${parts[parts.length - 1]}`;
  }
  return attribute;
}

/** Whether Confluent refuses an attribute name (configmanager.py:1353 attribute_name_is_invalid, without wildcards). */
export function isUnknownAttributeName(attribute: string): boolean {
  if (attribute.startsWith("custom.")) return false;
  return !(schemaNameOf(attribute) in CONFLUENT_NODE_ATTRIBUTES);
}

/**
 * Attributes Confluent never returns: reads say `{"isset": true|false}` instead
 * (plugins/configuration/attributes.py:129 and configmanager.py:148 attrib_supports_expression).
 */
export function isSecretAttribute(attribute: string): boolean {
  return (
    attribute.startsWith("secret.") ||
    attribute.startsWith("crypted.") ||
    attribute.startsWith("custom.nodesecret.")
  );
}
