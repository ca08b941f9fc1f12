import { describe, expect, it } from "vitest";
import { compareVersions, versionBehaviour } from "../../src/contract/xcat-versions";
import {
  attributesDecidedByGroups,
  unknownOnServerReason,
  versionedAttribute,
} from "../../src/provider/versioned-attributes";

describe("attributesDecidedByGroups", () => {
  it("lists conditioned attributes whose condition only the named groups can decide", () => {
    expect(attributesDecidedByGroups({ groups: "ipmi-racks", bmc: "10.1.0.1", ip: "10.0.0.1" })).toEqual([
      "bmc",
    ]);
    // The request decides mgt itself: one request is right on every release.
    expect(attributesDecidedByGroups({ groups: "all", mgt: "ipmi", bmc: "10.1.0.1" })).toEqual([]);
    // Without groups there is no group to decide it (and xCAT refuses it, which is reported).
    expect(attributesDecidedByGroups({ bmc: "10.1.0.1" })).toEqual([]);
  });
});

describe("releases", () => {
  it("orders releases and says which behaviour each has (docs/xcat-versions.md #1, #2)", () => {
    expect(compareVersions("2.19", "2.18.2")).toBeGreaterThan(0);
    expect(compareVersions("2.16.5", "2.17.0")).toBeLessThan(0);
    expect(versionBehaviour("2.16.5")).toEqual({
      objectBodyKeepsEmptyValues: false,
      failedConditionWritesNothing: false,
    });
    expect(versionBehaviour("2.17.0")).toEqual({
      objectBodyKeepsEmptyValues: true,
      failedConditionWritesNothing: false,
    });
    expect(versionBehaviour("2.18.2")).toEqual({
      objectBodyKeepsEmptyValues: true,
      failedConditionWritesNothing: true,
    });
  });

  it("names the release and the source when refusing an attribute", () => {
    const entry = versionedAttribute("osimage", "nfsrootopts");
    expect(entry && unknownOnServerReason("OS image", entry)).toMatch(/it came with xCAT 2\.19.*Schema\.pm/);
    expect(versionedAttribute("osimage", "profile")).toBeUndefined();
  });
});
