/**
 * Issue 16, item 2: which attribute names hold passwords. Their values go to the secret inputs
 * and are never printed, misspelt or not (the rule is documented at isSecretAttribute).
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { isSecretAttribute } from "../../src/provider/attributes";
import { attributeInputs } from "../../src/provider/classes/common";
import { makeProvider } from "../../src/provider/make-provider";
import { nodeSpec } from "../../src/provider/resources/node";
import { attributeMapProblems, connectionProblems } from "../../src/provider/validation";

const SECRET_VALUE = "Xyzzy-9f3c-bmc";

describe("isSecretAttribute", () => {
  it.each([
    // xCAT's own password attributes and columns.
    "bmcpassword",
    "passwd.HMC",
    "iscsipassword",
    "snmppassword",
    "domainadminpassword",
    "vidpassword",
    "password",
    // Password parts in any case.
    "BMCPassword",
    "bmcpasswd",
    "bmcpassw",
    "bmcpasword",
    "rootpwd",
    "ldapSecret",
    // Misspellings within edit distance 2 of a password attribute, with no password part.
    "bmcpsasword",
    "bmcpaswsord",
    "iscsipsasword",
  ])("%s is a password", (name) => {
    expect(isSecretAttribute(name)).toBe(true);
  });

  it.each([
    "bmcusername",
    "bmc",
    "mgt",
    "ip",
    "username",
    "authdomain",
    "groups",
    "vmmemory",
    "usercomment",
    "xcatmaster",
  ])("%s is not a password", (name) => {
    expect(isSecretAttribute(name)).toBe(false);
  });

  it("takes no known attribute of xCAT's schema for a misspelt password", () => {
    // bmcport is 4 edits from bmcpassword; the known-name rule keeps close ordinary names readable.
    expect(isSecretAttribute("bmcport")).toBe(false);
    expect(isSecretAttribute("snmpuser")).toBe(false);
  });
});

describe("password-like attributes in messages and inputs", () => {
  it("routes a misspelt password attribute to the secret inputs", async () => {
    const inputs = attributeInputs({ mgt: "ipmi", bmcpasword: SECRET_VALUE, bmcpsasword: SECRET_VALUE });
    expect(inputs.attributes).toEqual({ mgt: "ipmi" });
    const secret = pulumi.output(inputs.secretAttributes);
    expect(await (secret as unknown as { isSecret: Promise<boolean> }).isSecret).toBe(true);
  });

  /** The value of an input once resolved, and whether it is a secret. */
  async function resolved(input: pulumi.Input<unknown>): Promise<{ value: unknown; secret: boolean }> {
    const output = pulumi.output(input) as pulumi.Output<unknown>;
    const value = await new Promise((resolve) => output.apply((v) => resolve(v)));
    return { value, secret: await pulumi.isSecret(output) };
  }

  it("routes a value given as a secret to the secret inputs whatever its name, and keeps the rest plain", async () => {
    const inputs = attributeInputs({
      mgt: "ipmi",
      bmc: pulumi.output("10.1.0.7"),
      bmcusername: pulumi.secret("bmc-user-x1"),
    });
    const plain = await resolved(inputs.attributes);
    expect(plain).toEqual({ value: { mgt: "ipmi", bmc: "10.1.0.7" }, secret: false });
    const secret = await resolved(inputs.secretAttributes);
    expect(secret).toEqual({ value: { bmcusername: "bmc-user-x1" }, secret: true });
  });

  it("routes a map that is a secret as a whole to the secret inputs", async () => {
    const inputs = attributeInputs(pulumi.secret({ mgt: "ipmi", bmcusername: "bmc-user-x2" }));
    expect(await resolved(inputs.attributes)).toEqual({ value: {}, secret: false });
    expect(await resolved(inputs.secretAttributes)).toEqual({
      value: { mgt: "ipmi", bmcusername: "bmc-user-x2" },
      secret: true,
    });
    // A plain map given as an output is split by name, as before.
    const byName = attributeInputs(pulumi.output({ mgt: "ipmi", bmcpassword: "pw-x3" }));
    expect(await resolved(byName.attributes)).toEqual({ value: { mgt: "ipmi" }, secret: false });
    expect((await resolved(byName.secretAttributes)).value).toEqual({ bmcpassword: "pw-x3" });
  });

  it("names a misspelt password attribute with a hint and never prints its value", () => {
    const problems = attributeMapProblems({ bmcpasword: SECRET_VALUE }, "secretAttributes", "node");
    expect(problems.join("\n")).toMatch(/'bmcpasword' is not a node attribute.*did you mean 'bmcpassword'/);
    expect(problems.join("\n")).not.toContain(SECRET_VALUE);
  });

  it("does not print a password value that is not a string", () => {
    const problems = attributeMapProblems({ bmcpassword: 271828 }, "secretAttributes", "node");
    expect(problems).toEqual(["secretAttributes: the value of 'bmcpassword' must be a string, got a number"]);
    expect(connectionProblems({ url: "https://mn1", password: 271828, token: ["x9"] })).toEqual([
      "connection.password must be a string, got a number",
      "connection.token must be a string, got an array",
    ]);
  });

  it("gives the engine no property to print the value of, on a failure about a password", async () => {
    // The engine prints a failure's property with its value, secret or not.
    const provider = makeProvider(nodeSpec);
    const result = await provider.check?.(
      {},
      { name: "cn04", groups: ["all"], attributes: {}, secretAttributes: { bmcpasword: SECRET_VALUE } },
    );
    expect(result?.failures).toEqual([
      {
        property: "",
        reason:
          "secretAttributes: 'bmcpasword' is not a node attribute in xCAT's schema (did you mean 'bmcpassword'?)",
      },
    ]);
  });
});
