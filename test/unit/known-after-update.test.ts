/**
 * The rule that answers what xCAT reports after an update without reading it (issue #11, the
 * image roll), and the updates that must still be read back.
 */
import { describe, expect, it } from "vitest";
import {
  conditionAttributes,
  knownAfterUpdate,
  type UpdateRecord,
} from "../../src/client/known-after-update";

const recorded = {
  arch: "x86_64",
  groups: "compute,all",
  mgt: "ipmi",
  netboot: "xnba", // inherited from compute
  postbootscripts: "otherpkgs",
  postscripts: "syslog,remoteshell,syncfiles",
  provmethod: "rocky8-netboot",
};

function roll(sent: Record<string, string>, more: Partial<UpdateRecord> = {}) {
  return knownAfterUpdate({
    type: "node",
    recorded,
    previous: { groups: "compute,all", mgt: "ipmi", arch: "x86_64", provmethod: "rocky8-netboot" },
    sent,
    ...more,
  });
}

describe("knownAfterUpdate", () => {
  it("answers an image roll: the recorded report with the new value, keys sorted as lsdef prints them", () => {
    const after = roll({ provmethod: "rocky9-netboot" });
    expect(after).toEqual({ ...recorded, provmethod: "rocky9-netboot" });
    expect(Object.keys(after ?? {})).toEqual(Object.keys(after ?? {}).sort());
  });

  it("answers a value the node sets over one it inherited before, when the resource set it", () => {
    expect(roll({ netboot: "grub2" }, { previous: { netboot: "xnba" } })?.netboot).toBe("grub2");
    expect(roll({ os: "rocky9" })?.os).toBe("rocky9"); // not reported before: no group has one
  });

  it("stores what chdef stores: leading whitespace is dropped (the client sends a literal 0 as ' 0')", () => {
    expect(roll({ serialspeed: " 0" })?.serialspeed).toBe("0");
    expect(
      roll(
        { serialspeed: " 0" },
        { recorded: { ...recorded, serialspeed: "0" }, previous: { serialspeed: " 0" } },
      )?.serialspeed,
    ).toBe("0");
  });

  it("answers other types where attributes stand alone (osimage, network, policy)", () => {
    expect(
      knownAfterUpdate({
        type: "osimage",
        recorded: { imagetype: "linux", osvers: "rhels9" },
        previous: {},
        sent: { osarch: "x86_64" },
      }),
    ).toEqual({ imagetype: "linux", osarch: "x86_64", osvers: "rhels9" });
    expect(
      knownAfterUpdate({
        type: "network",
        recorded: { net: "10.0.0.0", mask: "255.0.0.0" },
        previous: {},
        sent: { gateway: "10.0.0.1" },
      }),
    ).toEqual({ gateway: "10.0.0.1", mask: "255.0.0.0", net: "10.0.0.0" });
  });

  const mustRead: [string, Record<string, string>, Partial<UpdateRecord>][] = [
    ["a clear (a group's value may show)", { provmethod: "" }, {}],
    ["a clear among sets", { provmethod: "rocky9-netboot", arch: "" }, {}],
    ["only whitespace (stored empty)", { provmethod: "   " }, {}],
    ["groups (what the node inherits)", { groups: "compute2,all" }, {}],
    ["mgt (an only_if condition: where bmc etc. are read from)", { mgt: "openbmc" }, {}],
    ["nodetype (an only_if condition)", { nodetype: "osi" }, {}],
    ["an attribute stored under a condition", { bmc: "10.1.0.9" }, {}],
    ["an attribute sharing its column with another (mp.id)", { slotid: "3" }, {}],
    ["postscripts (xcatdefaults are prepended)", { postscripts: "mine" }, {}],
    ["postbootscripts", { postbootscripts: "mine" }, {}],
    ["a nic attribute (shown per NIC)", { nicips: "eth0!10.0.0.5" }, {}],
    ["a regex template", { ip: "|\\D+(\\d+)|10.0.0.($1)|" }, {}],
    [
      "a substitution template (Table.pm transRegexAttrs' /pattern/replacement/ form)",
      { usercomment: "/n/node/" },
      {},
    ],
    ["a regex template after leading whitespace", { ip: " |\\D+(\\d+)|10.0.0.($1)|" }, {}],
    ["a line break", { usercomment: "a\nb" }, {}],
    ["an unknown attribute", { nosuch: "x" }, {}],
    ["no recorded report (old state)", { provmethod: "rocky9-netboot" }, { recorded: undefined }],
    ["nothing sent", {}, {}],
    ["a group's update (its values reach its members)", { provmethod: "rocky9-netboot" }, { type: "group" }],
    ["a type the rule does not know", { provmethod: "rocky9-netboot" }, { type: "site" }],
    [
      "a value recorded that the resource did not set (inherited, hierarchicalattrs or a hand edit)",
      { netboot: "grub2" },
      {},
    ],
    [
      "a recorded value that differs from what the resource set",
      { provmethod: "rocky9-netboot" },
      { previous: { provmethod: "other" } },
    ],
    [
      "imagetype of an osimage (an only_if condition)",
      { imagetype: "linux" },
      { type: "osimage", recorded: {} },
    ],
    [
      "a linuximage attribute (stored under imagetype=linux)",
      { pkglist: "/x" },
      { type: "osimage", recorded: {} },
    ],
  ];
  it.each(mustRead)("reads back after %s", (_why, sent, more) => {
    expect(roll(sent, more)).toBeUndefined();
  });

  it("names the only_if condition attributes from the schema", () => {
    expect(conditionAttributes("node")).toEqual(["mgt", "nodetype"]);
    expect(conditionAttributes("osimage")).toEqual(["imagetype"]);
    expect(conditionAttributes("policy")).toEqual([]);
  });
});
