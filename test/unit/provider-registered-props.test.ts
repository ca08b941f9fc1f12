/**
 * Issue 11: the props a resource class registers. Pulumi's SDK makes four promises with a stack
 * trace for every key it is given, so unset inputs are left out; output keys stay, or Pulumi would
 * not expose the outputs.
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { attributeObjectProps, registeredProps } from "../../src/provider/classes/common";

describe("registeredProps", () => {
  it("keeps every output key, set or not, and only the inputs that are set", () => {
    const props = registeredProps(["name", "allAttributes"], {
      name: "cn001",
      groups: ["all"],
      adopt: undefined,
      connection: undefined,
      insecure: false,
      comment: "",
    });
    expect(props).toStrictEqual({
      name: "cn001",
      allAttributes: undefined,
      groups: ["all"],
      insecure: false,
      comment: "",
    });
    expect(Object.keys(props)).toEqual(["name", "allAttributes", "groups", "insecure", "comment"]);
  });
});

describe("attributeObjectProps", () => {
  it("leaves out adopt and connection when the program does not set them", () => {
    const props = attributeObjectProps(
      undefined,
      { name: "cn001", groups: ["all"] },
      { attributes: { mgt: "ipmi" } },
    );
    expect(Object.keys(props).sort()).toEqual([
      "allAttributes",
      "attributes",
      "groups",
      "name",
      "secretAttributes",
    ]);
    expect(props.attributes).toEqual({ mgt: "ipmi" });
    expect(pulumi.Output.isInstance(props.secretAttributes)).toBe(true);
  });

  it("passes adopt and a connection when they are set", () => {
    const props = attributeObjectProps(
      undefined,
      { name: "cn001", groups: ["all"] },
      { adopt: false, connection: { url: "https://mn1/xcatws", token: "t" } },
    );
    expect(props.adopt).toBe(false);
    expect(pulumi.Output.isInstance(props.connection)).toBe(true);
  });

  it("gives Resource.get the output keys and the connection alone", () => {
    const props = attributeObjectProps({ id: "cn001" }, { name: "cn001", groups: [] }, {});
    expect(props).toStrictEqual({
      name: undefined,
      attributes: undefined,
      allAttributes: undefined,
      groups: undefined,
    });
  });
});
