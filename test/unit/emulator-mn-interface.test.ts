import { describe, expect, it } from "vitest";
import { parseArgs } from "../../src/emulator/cli";

// The MN's interfaces are what makenetworks discovers and GET /localres/adapters lists
// (localrest.pm:145-199): on a real MN they come from the system, here from the command line.
describe("xcat-emulator --mn-interface", () => {
  it("takes NAME=IP/PREFIX[,GATEWAY], the prefix as a length or a dotted mask, repeatable", () => {
    const { options } = parseArgs([
      "--mn-interface",
      "ib0=172.16.0.1/255.255.0.0",
      "--mn-interface=eno1=10.1.0.1/22,10.1.0.254",
    ]);
    expect(options.mnInterfaces).toEqual([
      { name: "ib0", ip: "172.16.0.1", mask: "255.255.0.0" },
      { name: "eno1", ip: "10.1.0.1", mask: "255.255.252.0", gateway: "10.1.0.254" },
    ]);
    expect(parseArgs([]).options.mnInterfaces).toBeUndefined();
  });
  it.each([
    ["eth0", /is not NAME=IP\/PREFIX\[,GATEWAY\]/],
    ["eth0=10.0.0.300/16", /'10\.0\.0\.300' in 'eth0=10\.0\.0\.300\/16' is not an IPv4 address/],
    ["eth0=10.0.0.1/33", /'33' .* neither a prefix length 0-32 nor a contiguous netmask/],
    ["eth0=10.0.0.1/255.0.255.0", /neither a prefix length 0-32 nor a contiguous netmask/],
    ["eth0=10.0.0.1/16,gw", /gateway 'gw' in .* is not an IPv4 address/],
  ])("refuses %s, saying why", (text, message) => {
    expect(() => parseArgs(["--mn-interface", text])).toThrow(/^invalid value for --mn-interface: /);
    expect(() => parseArgs(["--mn-interface", text])).toThrow(message);
  });
  it("refuses one interface name given twice", () => {
    expect(() =>
      parseArgs(["--mn-interface", "eth0=10.0.0.1/16", "--mn-interface", "eth0=10.1.0.1/16"]),
    ).toThrow(/--mn-interface names eth0 twice/);
  });
});
