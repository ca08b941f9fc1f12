/**
 * Issue 16 item 2: which attribute names are password-like. Their values go to the secret
 * `secretAttributes`, so they are encrypted in the state and never printed; misspellings of
 * xCAT's password attributes count too, since their values are passwords all the same.
 */
import { describe, expect, it } from "vitest";
import { isSecretAttribute } from "../../src/provider/attributes";
import { attributeMapProblems } from "../../src/provider/validation";

describe("password-like attribute names", () => {
  // xCAT's secrets: Schema.pm's ipmi.password (bmcpassword), passwd.password, iscsi.passwd,
  // pdu.authkey/privkey (SNMPv3 keys), domain.adminpassword.
  it.each([
    "bmcpassword",
    "password",
    "passwd.HMC",
    "iscsipassword",
    "snmppassword",
    "domainadminpassword",
    "authkey",
    "privkey",
  ])("xCAT's own %s", (name) => expect(isSecretAttribute(name)).toBe(true));

  it.each([
    "bmcpasword",
    "bmcpaswd",
    "bmcpswd",
    "bmcpw",
    "BMCPassWord",
    "bmcpasswrod",
    "apisecret",
    "tokenid",
  ])("a misspelled or invented %s", (name) => expect(isSecretAttribute(name)).toBe(true));

  it.each(["mgt", "bmc", "bmcusername", "ip", "mac", "groups", "os", "profile", "postscripts", "serialport"])(
    "not an ordinary %s",
    (name) => expect(isSecretAttribute(name)).toBe(false),
  );
});

describe("check messages never carry a password-like value", () => {
  const value = "s3cr3t-value-xyz";

  it("a misspelled password is refused with a did-you-mean and without its value", () => {
    const problems = attributeMapProblems({ bmcpasword: value }, "secretAttributes", "node");
    expect(problems.join("\n")).toMatch(/'bmcpasword' is not a node attribute.*did you mean 'bmcpassword'/);
    expect(problems.join("\n")).not.toContain(value);
  });

  it("a password that is not a string is refused without its value", () => {
    const problems = attributeMapProblems({ bmcpassword: 123456789 }, "secretAttributes", "node");
    expect(problems.join("\n")).toMatch(/the value of 'bmcpassword' must be a string, got a number/);
    expect(problems.join("\n")).not.toContain("123456789");
  });
});
