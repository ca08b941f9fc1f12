/**
 * The node definition templates xCAT ships in /opt/xcat/share/xcat/templates/objects/node/ (source:
 * xCAT/templates/objects/node/*.stanza), which `mkdef --template <name>` and `lsdef --template`
 * read (DBobjectdefs.pm:677-730). Values `MANDATORY:<text>` must be given on mkdef, `OPTIONAL:<text>`
 * may be (DBobjectdefs.pm:1412-1434). `objtype` is the stanza field, not an attribute.
 */
import { CommandError } from "./errors";

/** Template name → its stanza fields, as shipped. */
export const NODE_TEMPLATES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  // cec.stanza
  "cec-template": {
    objtype: "node",
    groups: "cec,all",
    hcp: "MANDATORY:The hardware control point(HMC) for the node",
    hwtype: "cec",
    mgt: "hmc",
    mtm: "MANDATORY:The machine type and model number of the node",
    nodetype: "ppc",
    serial: "MANDATORY:The serial number of the node",
    usercomment: "the cec definition template",
  },
  // hmc.stanza
  "hmc-template": {
    objtype: "node",
    groups: "hmc",
    hwtype: "hmc",
    mgt: "hmc",
    nodetype: "hmc",
    ip: "MANDATORY:the ip address of the hmc",
    password: "MANDATORY:the password of the hmc",
    username: "MANDATORY:the username on the hmc",
    usercomment: "the template for hmc definition",
  },
  // onieswitch.stanza
  onieswitch: {
    objtype: "node",
    arch: "OPTIONAL: the arch of the switch management service processor, such as armv71",
    groups: "switch",
    ip: "OPTIONAL:the ip address of the management interface",
    mac: "OPTIONAL:the mac of the management interface",
    mgt: "switch",
    netboot: "onie",
    nodetype: "switch",
    switchtype: "onie",
    provmethod: "OPTIONAL: the full path of the cumulus installer",
    usercomment: "the template for cumulus switch definition",
  },
  // ppc64le-ipmi.stanza
  "ppc64le-template": {
    objtype: "node",
    arch: "ppc64le",
    bmc: "MANDATORY:The hostname or ip address of the BMC adapater",
    bmcpassword: "OPTIONAL:the password of the BMC",
    bmcusername: "OPTIONAL:the username of the BMC",
    cons: "ipmi",
    groups: "all",
    ip: "MANDATORY:the ip address of the node",
    mac: "OPTIONAL:the mac of the node",
    mgt: "ipmi",
    netboot: "petitboot",
    nodetype: "mp",
    serialport: "0",
    serialspeed: "115200",
    usercomment: "the template for ipmi controlled PowerLE NV node definition",
  },
  // ppc64le-openbmc.stanza
  "ppc64le-openbmc-template": {
    objtype: "node",
    arch: "ppc64le",
    bmc: "MANDATORY:The hostname or ip address of the BMC adapater",
    bmcpassword: "OPTIONAL:the password of the BMC",
    bmcusername: "OPTIONAL:the username of the BMC",
    cons: "openbmc",
    groups: "all",
    ip: "MANDATORY:the ip address of the node",
    mac: "OPTIONAL:the mac of the node",
    mgt: "openbmc",
    netboot: "petitboot",
    nodetype: "mp",
    serialport: "0",
    serialspeed: "115200",
    usercomment: "the template for openbmc controlled PowerLE NV node definition",
  },
  // ppc64lekvmguest.stanza
  "ppc64lekvmguest-template": {
    objtype: "node",
    arch: "ppc64le",
    groups: "all",
    ip: "MANDATORY:the ip address of the kvm guest",
    mac: "OPTIONAL:the mac of the kvm guest",
    mgt: "kvm",
    netboot: "grub2",
    vmcpus: "2",
    vmhost: "MANDATORY:the hostname or ip address of the KVM hypervisor",
    vmmemory: "4096",
    vmnicnicmodel: "virtio",
    vmnics: "MANDATORY:the hypervisor nics used to create the kvm guest network",
    vmstorage: "dir:///var/lib/libvirt/images",
    usercomment: "the power LE kvm node definition template",
  },
  // switch.stanza
  "switch-template": {
    objtype: "node",
    groups: "switch",
    ip: "OPTIONAL:the ip address of the switch",
    mac: "OPTIONAL:the MAC address of the switch",
    mgt: "switch",
    nodetype: "switch",
    switchtype:
      "OPTIONAL:The type of switch. It is used to identify the file name that implements the functions for this swithc. The valid values are: Mellanox, Cisco, BNT and Juniper.",
    usercomment: "the switch definition template",
  },
  // x86_64.stanza
  "x86_64-template": {
    objtype: "node",
    arch: "x86_64",
    bmc: "MANDATORY:The hostname or ip address of the BMC adapater",
    bmcpassword: "OPTIONAL:the password of the BMC",
    bmcusername: "OPTIONAL:the username of the BMC",
    cons: "ipmi",
    getmac: "ipmi",
    groups: "all",
    hcp: "",
    ip: "MANDATORY:the ip address of the node",
    mac: "OPTIONAL:the mac of the node",
    mgt: "ipmi",
    netboot: "xnba",
    serialport: "0",
    serialspeed: "115200",
    usercomment: "the system X node definition",
  },
  // x86_64kvmguest.stanza
  "x86_64kvmguest-template": {
    objtype: "node",
    arch: "x86_64",
    groups: "all",
    ip: "MANDATORY:the ip address of the kvm guest",
    mac: "OPTIONAL:the mac of the kvm guest",
    mgt: "kvm",
    netboot: "xnba",
    serialport: "0",
    serialspeed: "115200",
    vmcpus: "2",
    vmhost: "MANDATORY:the hostname or ip address of the KVM hypervisor",
    vmmemory: "4096",
    vmnicnicmodel: "virtio",
    vmnics: "MANDATORY:the hypervisor nics used to create the kvm guest network",
    vmstorage: "dir:///var/lib/libvirt/images",
    usercomment: "the system X kvm node definition",
  },
};

/** Perl truth of an attr=val operand: "" and "0" are false (`unless ($::ATTRS{$key})`). */
function given(assignments: ReadonlyMap<string, string>, attribute: string): boolean {
  const value = assignments.get(attribute);
  return value !== undefined && value !== "" && value !== "0";
}

/**
 * `mkdef --template <name>` (DBobjectdefs.pm:641-671, 1370-1436): the attributes the request does
 * not give come from the named template, a shipped one (node type only, `objects/<type>/`) or else
 * an existing object of the type. Shipped `OPTIONAL:` values are dropped; a `MANDATORY:` one the
 * request lacks is an error.
 *
 * @param existing reads an existing object of the type, undefined when there is none
 * @param anyExists whether any object of the type exists
 */
export function withTemplate(
  template: string,
  type: string,
  names: readonly string[],
  assignments: ReadonlyArray<readonly [string, string]>,
  existing: (name: string) => Readonly<Record<string, string>> | undefined,
  anyExists: boolean,
): [string, string][] {
  if (template === "")
    throw new CommandError(["no object definition template specified for mkdef --template!"]);
  if (template.includes(","))
    throw new CommandError(["Only 1 template object definition should be specified for mkdef!"]);
  const request = new Map(assignments);
  const out: [string, string][] = assignments.map(([a, v]) => [a, v]);
  const inherit = (attribute: string, value: string) => {
    if (given(request, attribute) || value === "") return;
    const at = out.findIndex(([a]) => a === attribute);
    if (at >= 0) out.splice(at, 1);
    out.push([attribute, value]);
  };
  const shipped = type === "node" ? NODE_TEMPLATES[template] : undefined;
  if (shipped) {
    for (const [attribute, raw] of Object.entries(shipped)) {
      if (attribute === "objtype") continue;
      if (raw.startsWith("MANDATORY:") && !given(request, attribute))
        throw new CommandError([`The attribute "${attribute}" must be specified!`]);
      inherit(attribute, raw.startsWith("OPTIONAL:") || raw.startsWith("MANDATORY:") ? "" : raw);
    }
    return out;
  }
  if (!anyExists) throw new CommandError([`Could not get objects of type '${type}'.`]);
  const object = existing(template);
  if (!object)
    throw new CommandError([`Could not find the template object named '${template}' of type '${type}'.`]);
  if (names.includes(template))
    throw new CommandError(["The template node cannot be the same as the node to create."]);
  for (const [attribute, value] of Object.entries(object))
    if (attribute !== "objtype") inherit(attribute, value);
  return out;
}
