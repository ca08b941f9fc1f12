/**
 * Issue 16, item 3: values no cluster can use are refused at check, naming the field; xCAT's
 * regular-expression values, unknown (preview) values and empty values are left alone. One case
 * per rule of src/provider/attribute-values.ts, each with a value xCAT's sources accept and one
 * no cluster can use.
 */
import { describe, expect, it } from "vitest";
import type { ObjectType } from "../../src/contract/schema";
import { attributeValueProblems } from "../../src/provider/attribute-values";
import { isUnknown, UNKNOWN } from "../../src/provider/validation";

const problems = (type: ObjectType, attributes: Record<string, unknown>) =>
  attributeValueProblems(attributes, "attributes", type, isUnknown);

// biome-ignore format: one rule per line reads as a table
const RULES: ReadonlyArray<readonly [ObjectType, string, readonly string[], readonly string[]]> = [
  // type, attribute, accepted values, refused values
  ["node", "ip", ["10.0.1.1", "172.20.1.254", "fd00::1"], ["172.20.1.300", "10.0.1", "cn01", "10.0.0.1/24"]],
  ["node", "bmc", ["10.1.1.1", "cn01-bmc", "bmc.r01.example.org"], ["10.1.1.256", "bmc host", "-bmc"]],
  ["node", "mac", ["52:54:00:00:00:01", "52:54:00:00:00:01!cn01|52:54:00:00:00:02!cn01-eth1", "52:54:00:00:00:01|52:54:00:00:00:02", "52:54:00:00:00:03!*NOIP*"], ["zz:zz", "52:54:00:00:00", "52-54-00-00-00-01x", "52:54:00:00:00:01!", "52:54:00:00:00:01,52:54:00:00:00:02"]],
  ["node", "mgt", ["ipmi", "openbmc", "kvm", "redfish", "hmc"], ["ipmii", "IPMI", "bmc"]],
  ["node", "netboot", ["xnba", "pxe", "grub2", "grub2-http", "petitboot", "yaboot"], ["xnbaa", "grub3", "uefi"]],
  ["node", "arch", ["x86_64", "ppc64le", "aarch64"], ["amd64", "x86-64", "arm64"]],
  ["node", "nameservers", ["10.0.0.1", "10.0.0.1,10.0.0.2", "<xcatmaster>"], ["10.0.0.999", "10.0.0.1;10.0.0.2"]],
  ["node", "vmcpus", ["1", "16"], ["0", "two", "2.5", "-1"]],
  ["node", "vmmemory", ["4096", "8G", "512M"], ["0", "4 GB", "lots"]],
  ["node", "serialspeed", ["19200", "115200"], ["fast", "0"]],
  ["group", "mgt", ["ipmi"], ["ipmii"]],
  ["group", "ip", ["10.0.0.5"], ["10.0.0.500"]],
  ["network", "gateway", ["10.0.0.254", "<xcatmaster>"], ["10.0.0.2544", "gw01"]],
  ["network", "dhcpserver", ["10.0.0.1", "sn01"], ["<xcatmaster>", "10.0.0.256"]],
  ["network", "tftpserver", ["10.0.0.1", "sn01", "<xcatmaster>"], ["10.0.0.300"]],
  ["network", "nameservers", ["10.0.0.1,10.0.0.2", "<xcatmaster>"], ["10.0.0.1 10.0.0.2"]],
  ["network", "ntpservers", ["10.0.0.1,ntp.example.org"], ["10.0.0.1,,"]],
  ["network", "logservers", ["10.0.0.1"], ["10.0.0.1.1"]],
  ["network", "vlanid", ["1", "4094"], ["0", "4095", "vlan10"]],
  ["network", "mtu", ["1500", "9000"], ["100", "jumbo", "70000"]],
  ["osimage", "osarch", ["x86_64", "ppc64le"], ["x64"]],
];

describe("well-known attribute values", () => {
  it.each(RULES)("%s %s", (type, attribute, accepted, refused) => {
    for (const value of accepted) expect(problems(type, { [attribute]: value }), value).toEqual([]);
    for (const value of refused) {
      const found = problems(type, { [attribute]: value });
      expect(found, value).toHaveLength(1);
      expect(found[0]).toContain(`attributes: ${attribute} '${value}' is not `);
    }
  });

  it("says what was expected", () => {
    expect(problems("node", { ip: "172.20.1.300", mgt: "ipmii" })).toEqual([
      "attributes: ip '172.20.1.300' is not an IP address like 10.0.0.1",
      expect.stringMatching(/^attributes: mgt 'ipmii' is not one of .*\bipmi\b/),
    ]);
  });

  it("leaves xCAT's regular-expression values, unknown values, empty values and other attributes alone", () => {
    expect(
      problems("group", {
        ip: "|\\D+(\\d+)|10.0.0.($1)|",
        bmc: "|cn(\\d+)|10.1.0.($1+0)|",
        mac: UNKNOWN,
        mgt: "",
        usercomment: "10.0.0.300",
      }),
    ).toEqual([]);
    expect(problems("policy", { name: "10.0.0.300" })).toEqual([]);
  });
});
