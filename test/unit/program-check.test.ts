// The program-side check that names every invalid resource in one preview (issue #36 item 7):
// the same pure check the provider runs, on inputs the program already knows.
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import {
  describeFailures,
  inputsAsChecked,
  isWhollyPlain,
  programCheckFailures,
} from "../../src/provider/classes/program-check";

describe("program-side check", () => {
  it("finds the provider's failures in plain inputs, naming each field", () => {
    const failures = programCheckFailures("xcat:Node", {
      name: "cn01",
      groups: ["all"],
      attributes: { mgt: "ipmi", bcm: "10.1.0.1", ip: "10.0.0.300" },
    });
    const properties = failures.map((failure) => failure.property);
    expect(properties).toContain("attributes");
    const reasons = failures.map((failure) => failure.reason).join("\n");
    expect(reasons).toMatch(/bcm/);
    expect(reasons).toMatch(/10\.0\.0\.300/);
  });

  it("refuses a network mask that is not contiguous, on the mask field", () => {
    const failures = programCheckFailures("xcat:Network", {
      name: "mgmt",
      net: "10.0.0.0",
      mask: "255.0.255.0",
    });
    expect(failures.map((failure) => failure.property)).toEqual(["mask"]);
  });

  it("accepts valid inputs", () => {
    expect(
      programCheckFailures("xcat:Node", {
        name: "cn01",
        groups: ["all"],
        attributes: { mgt: "ipmi", ip: "10.0.0.3" },
      }),
    ).toEqual([]);
  });

  it("leaves inputs that are outputs or promises to the provider", () => {
    const groups = pulumi.output(["all"]);
    expect(isWhollyPlain({ groups })).toBe(false);
    expect(isWhollyPlain({ attributes: { ip: Promise.resolve("10.0.0.300") } })).toBe(false);
    expect(inputsAsChecked({ name: "cn01", groups })).toBeUndefined();
    expect(
      programCheckFailures("xcat:Node", { name: "cn01", groups, attributes: { ip: "10.0.0.300" } }),
    ).toEqual([]);
  });

  it("splits password attributes as the class does, and never puts a password's value in the message", () => {
    expect(inputsAsChecked({ name: "cn04", attributes: { mgt: "ipmi", bmcpassword: "Xyzzy" } })).toEqual({
      name: "cn04",
      attributes: { mgt: "ipmi" },
      secretAttributes: { bmcpassword: "Xyzzy" },
    });
    const failures = programCheckFailures("xcat:Node", {
      name: "cn04",
      groups: ["all"],
      attributes: { mgt: "ipmi", bmcpasword: "Xyzzy-9f3c-bmc" },
    });
    expect(failures.length).toBeGreaterThan(0);
    const message = describeFailures("xcat:Node", "cn04", failures);
    expect(message).toMatch(/bmcpasword/);
    expect(message).not.toMatch(/Xyzzy-9f3c-bmc/);
  });

  it("names the resource and every field in one message", () => {
    const message = describeFailures("xcat:Node", "cn01", [
      { property: "attributes", reason: "unknown attribute bcm" },
      { property: "groups", reason: "groups must be a non-empty list" },
    ]);
    expect(message.split("\n")).toEqual([
      "pulumi-nodejs:dynamic/xcat:Node resource 'cn01': property attributes has a problem: unknown attribute bcm",
      "pulumi-nodejs:dynamic/xcat:Node resource 'cn01': property groups has a problem: groups must be a non-empty list",
      "Nothing of xcat:Node 'cn01' was sent to the server.",
    ]);
  });
});
