/**
 * Values no cluster can use, caught at check (preview) before anything reaches xCAT: xCAT itself
 * stores whatever it is given (`ip=172.20.1.300`, `mgt=ipmii`), and the mistake surfaces only when
 * a plugin or a service reads it. The rules are data (attribute → form), each form a small check;
 * forms and accepted values come from xCAT's schema descriptions and plugins, cited per rule.
 *
 * Left alone: unknown values (preview), empty values (they clear), and xCAT's regular-expression
 * values `|pattern|replacement|`, which a group holds to compute a value per member node
 * (xcat-behavior.md, group inheritance).
 */
import { isIPv4, isIPv6 } from "node:net";
import type { ObjectType } from "../contract/schema";

/** A form a value must have: the check, and how to say what was expected. */
interface ValueForm {
  readonly accepts: (value: string) => boolean;
  readonly expected: string;
}

const HOSTNAME =
  /^(?=.{1,253}$)[A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?(\.[A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?)*$/;
/** Dotted digits only: meant as an IPv4 address, so it must be one (not a "hostname" 10.0.0.300). */
const DOTTED_DIGITS = /^[\d.]+$/;
const MAC = /^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$/;
const XCATMASTER = "<xcatmaster>";

const isAddress = (value: string) => isIPv4(value) || isIPv6(value);
const isHost = (value: string) => isAddress(value) || (!DOTTED_DIGITS.test(value) && HOSTNAME.test(value));
const commaList = (each: (item: string) => boolean) => (value: string) =>
  value.split(",").every((item) => each(item.trim()));
const oneOf = (values: readonly string[]) => {
  const set = new Set(values);
  return { accepts: (value: string) => set.has(value), expected: `one of ${values.join(", ")}` };
};

/**
 * One MAC entry of nodes' `mac`: a MAC address, optionally `!hostname` (the name it resolves to)
 * or `!*NOIP*` (a NIC without an IP). Schema.pm:494 (mac.mac): "a "|" delimited string of
 * "mac address!hostname" format (such as "01:02:03:04:05:0E!node5|01:02:03:04:05:0F!node6-eth1")".
 */
function isMacEntry(entry: string): boolean {
  const bang = entry.indexOf("!");
  if (bang < 0) return MAC.test(entry);
  const name = entry.slice(bang + 1);
  return MAC.test(entry.slice(0, bang)) && (name === "*NOIP*" || HOSTNAME.test(name));
}

/** The forms, by name. */
const FORMS = {
  address: { accepts: isAddress, expected: "an IP address like 10.0.0.1" },
  host: { accepts: isHost, expected: "an IP address like 10.0.0.1 or a host name" },
  gateway: {
    // Schema.pm:568 (networks.gateway): "an ip address or the keyword <xcatmaster>".
    accepts: (value: string) => value === XCATMASTER || isAddress(value),
    expected: `an IP address like 10.0.0.254 or ${XCATMASTER}`,
  },
  hostOrMaster: {
    // dhcp.pm:674 compares tftpserver with <xcatmaster>, the managing (service) node.
    accepts: (value: string) => value === XCATMASTER || isHost(value),
    expected: `an IP address, a host name or ${XCATMASTER}`,
  },
  serverList: {
    // Schema.pm:571 (networks.nameservers): "A comma delimited list of DNS servers ... you can
    // also set this attribute to "<xcatmaster>"".
    accepts: commaList((item) => item === XCATMASTER || isHost(item)),
    expected: `a comma-separated list of IP addresses, host names or ${XCATMASTER}`,
  },
  macs: {
    accepts: (value: string) => value.split("|").every(isMacEntry),
    expected: "a MAC address like 52:54:00:00:00:01, or several as mac!hostname separated by '|'",
  },
  count: { accepts: (value: string) => /^[1-9]\d*$/.test(value), expected: "a positive whole number" },
  memory: {
    // kvm.pm:687-705 (getUnits): a number of MiB, or a number with a unit suffix K, M, G or T.
    accepts: (value: string) => /^[1-9]\d*[KkMmGgTt]?$/.test(value),
    expected: "a number of MiB, or a number with a unit (K, M, G, T) like 4G",
  },
  vlanId: {
    accepts: (value: string) => /^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 4094,
    expected: "a VLAN id from 1 to 4094",
  },
  mtu: {
    accepts: (value: string) => /^\d+$/.test(value) && Number(value) >= 576 && Number(value) <= 65535,
    expected: "an MTU from 576 to 65535",
  },
  /**
   * nodehm.mgt names the plugin that manages the node: Schema.pm:608 lists openbmc, ipmi, blade,
   * hmc, ivm, fsp, bpa, kvm, esx, rhevm; the plugins that take rpower by nodehm:mgt add hpblade,
   * hpilo, mic, pdu, redfish, xen, zvm (xCAT-server/lib/xcat/plugins/*.pm handled_commands, e.g.
   * redfish.pm:35, zvm.pm:52), onie.pm:33 adds switch; dfm is xCAT-dfm's (Power 775, outside
   * xcat-core; xCAT-test's REST cases create nodes with it).
   */
  mgt: oneOf([
    "blade",
    "bpa",
    "dfm",
    "esx",
    "fsp",
    "hmc",
    "hpblade",
    "hpilo",
    "ipmi",
    "ivm",
    "kvm",
    "mic",
    "openbmc",
    "pdu",
    "redfish",
    "rhevm",
    "switch",
    "xen",
    "zvm",
  ]),
  /**
   * noderes.netboot names the boot-loader plugin: Schema.pm:670-677 lists pxe, xnba, grub2,
   * grub2-http, grub2-tftp, yaboot, petitboot; the plugins that take nodeset by noderes:netboot add
   * nimol (nimol.pm:34), vsmppxe (vsmppxe.pm:25) and zvm (zvm.pm:60); dhcp.pm:695 knows onie.
   */
  netboot: oneOf([
    "grub2",
    "grub2-http",
    "grub2-tftp",
    "nimol",
    "onie",
    "petitboot",
    "pxe",
    "vsmppxe",
    "xnba",
    "yaboot",
    "zvm",
  ]),
  /**
   * nodetype.arch: Schema.pm:753 lists x86_64, ppc64, x86, ia64, aarch64; Schema.pm:676 adds
   * ppc64le (the OpenPOWER nodes) and z/VM nodes are s390x.
   */
  arch: oneOf(["aarch64", "ia64", "ppc64", "ppc64le", "s390x", "x86", "x86_64"]),
} satisfies Record<string, ValueForm>;

type FormName = keyof typeof FORMS;

/** Node and group attributes (a group's values are what its members inherit). */
const NODE_RULES: Readonly<Record<string, FormName>> = {
  ip: "address", // Schema.pm:399 (hosts.ip): "The IP address of the node"
  bmc: "host", // Schema.pm:412 (ipmi.bmc): "The hostname of the BMC adapter"
  mac: "macs",
  mgt: "mgt",
  netboot: "netboot",
  arch: "arch",
  nameservers: "serverList", // Schema.pm:695 (noderes.nameservers): an override of the list
  vmcpus: "count",
  vmmemory: "memory",
  serialspeed: "count", // Schema.pm:614: "For SOL this is typically 19200"
};

/** The rules per object type: attribute → form. */
export const ATTRIBUTE_VALUE_RULES: Readonly<
  Partial<Record<ObjectType, Readonly<Record<string, FormName>>>>
> = {
  node: NODE_RULES,
  group: NODE_RULES,
  network: {
    gateway: "gateway", // Schema.pm:568
    dhcpserver: "host", // Schema.pm:569: "<xcatmaster> is not a valid field value for this field"
    tftpserver: "hostOrMaster", // Schema.pm:570
    nameservers: "serverList", // Schema.pm:571
    ntpservers: "serverList", // Schema.pm:572 (a list of servers; <xcatmaster> as for DNS)
    logservers: "serverList",
    vlanid: "vlanId", // Schema.pm:579
    mtu: "mtu", // Schema.pm:581
  },
  osimage: { osarch: "arch" },
};

/** Whether a value is one of xCAT's regular-expression values, `|pattern|replacement|`. */
export function isRegexValue(value: string): boolean {
  return value.length >= 3 && value.startsWith("|") && value.endsWith("|");
}

/**
 * Problems with the values of well-known attributes in an attribute map, each naming the field:
 * `attributes: ip '172.20.1.300' is not an IP address like 10.0.0.1`. Values that are not
 * strings, unknown at preview, empty, or regular-expression values are not judged here.
 */
export function attributeValueProblems(
  attributes: unknown,
  what: string,
  objectType: ObjectType,
  isUnknown: (value: unknown) => boolean,
): string[] {
  const rules = ATTRIBUTE_VALUE_RULES[objectType];
  if (!rules || typeof attributes !== "object" || attributes === null) return [];
  const problems: string[] = [];
  for (const [name, value] of Object.entries(attributes)) {
    const formName = rules[name];
    if (formName === undefined || typeof value !== "string" || isUnknown(value)) continue;
    if (value === "" || isRegexValue(value)) continue;
    const form: ValueForm = FORMS[formName];
    if (!form.accepts(value)) problems.push(`${what}: ${name} '${value}' is not ${form.expected}`);
  }
  return problems;
}
