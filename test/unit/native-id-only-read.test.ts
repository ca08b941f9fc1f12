/**
 * What the native provider returns for a Read by id alone (`pulumi import`, `.get`): the core's
 * password attributes left out, since the code `pulumi import` prints cannot carry them but the
 * state would, and a missing object named with its type, resource and id (id-only-read.ts).
 */
import { describe, expect, it } from "vitest";
import { isIdOnlyRead, nothingToImport, withoutPasswords } from "../../src/native/id-only-read";

describe("an id-only read", () => {
  it("is one with neither properties nor inputs; a refresh sends the state's", () => {
    expect(isIdOnlyRead({}, {})).toBe(true);
    expect(isIdOnlyRead({ name: "n01" }, {})).toBe(false);
    expect(isIdOnlyRead({}, { groups: ["all"] })).toBe(false);
  });

  it("leaves the password attributes out and keeps every other value", () => {
    const read = {
      name: "n01",
      groups: ["compute"],
      attributes: { mgt: "ipmi" },
      secretAttributes: { bmcpassword: "s3cret" },
      adopt: false,
    };
    expect(withoutPasswords(read)).toEqual({
      name: "n01",
      groups: ["compute"],
      attributes: { mgt: "ipmi" },
      adopt: false,
    });
    expect(JSON.stringify(withoutPasswords(read))).not.toContain("s3cret");
  });

  it("leaves a table row's password columns out of its values and keeps the others", () => {
    const read = {
      table: "passwd",
      keys: { key: "ipmi" },
      values: { username: "ADMIN", password: "s3cret" },
    };
    expect(withoutPasswords(read)).toEqual({
      table: "passwd",
      keys: { key: "ipmi" },
      values: { username: "ADMIN" },
    });
    expect(JSON.stringify(withoutPasswords(read))).not.toContain("s3cret");
  });

  it("names the type, the resource, the id and where the id is explained when nothing is found", () => {
    expect(nothingToImport("xcat:index:Network", "net9", "net99").message).toBe(
      `xcat:index:Network "net9": the server has no object with the id 'net99' to import or get; nothing was ` +
        "imported. Check the id (docs/reference/Network.md says what a Network's id is).",
    );
  });
});
