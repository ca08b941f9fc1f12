/**
 * The record of the stack's server in a TypeScript resource's state and the refusal when the
 * stack's xcat:url / xcat:backend now name another server (issue #36 N12, src/provider/stack-server.ts).
 */
import { describe, expect, it } from "vitest";
import {
  connectionServerRecord,
  recordedServerOf,
  stackServerMismatch,
} from "../../src/provider/stack-server";

const A = { url: "https://mn-a.example/xcatws", username: "root", password: "secret-a" };
const A_OTHER_ACCOUNT = { ...A, username: "other" };
const B = { url: "https://mn-b.example", username: "root", password: "secret-b" };

describe("connectionServerRecord without a connection (the stack's server)", () => {
  it("keeps backend and normalized url only, never credentials", () => {
    const record = connectionServerRecord(undefined, B);
    expect(record).toEqual({ backend: "xcat", url: "https://mn-b.example/xcatws" });
    expect(JSON.stringify(record)).not.toContain("secret-b");
  });

  it("reads back what it wrote, and nothing from state written before the record", () => {
    expect(recordedServerOf({ managementServer: connectionServerRecord(undefined, A) })).toEqual(
      connectionServerRecord(undefined, A),
    );
    expect(recordedServerOf({ name: "n1" })).toBeUndefined();
  });
});

describe("connectionServerRecord", () => {
  it("names the connection's server, backend and normalized url only, its missing settings from the stack's", () => {
    const record = connectionServerRecord(B, A);
    expect(record).toEqual({ backend: "xcat", url: "https://mn-b.example/xcatws" });
    expect(JSON.stringify(record)).not.toContain("secret");
    expect(connectionServerRecord({ backend: "confluent" }, { url: "https://cf.example" })).toEqual({
      backend: "confluent",
      url: expect.stringMatching(/^https:\/\/cf\.example/),
    });
  });
});

describe("stackServerMismatch", () => {
  const made = (server: typeof A, extra: Record<string, unknown> = {}) => ({
    name: "cn001",
    managementServer: connectionServerRecord(undefined, server),
    ...extra,
  });

  it("is silent while the stack names the server the resource was made on (another account too)", () => {
    expect(stackServerMismatch("xcat:Node", "cn001", made(A), A, "refresh")).toBeUndefined();
    expect(stackServerMismatch("xcat:Node", "cn001", made(A), A_OTHER_ACCOUNT, "refresh")).toBeUndefined();
  });

  it("refuses naming the resource, both servers and the way to move when the url changed", () => {
    const refusal = stackServerMismatch("xcat:Node", "cn001", made(A), B, "refresh");
    expect(refusal).toContain('xcat:Node "cn001": was made on https://mn-a.example/xcatws (xcat)');
    expect(refusal).toContain("now name https://mn-b.example/xcatws (xcat)");
    expect(refusal).toContain("so the refresh is refused");
    expect(refusal).toContain("give its resources a `connection` naming the new server");
    expect(refusal).not.toContain("secret");
  });

  it("refuses when only the backend changed", () => {
    const refusal = stackServerMismatch(
      "xcat:Node",
      "cn001",
      made(A),
      { ...A, backend: "confluent" },
      "delete",
    );
    expect(refusal).toContain("(confluent)");
  });

  it("leaves resources with their own connection, and state without a record, to the connection logic", () => {
    expect(
      stackServerMismatch("xcat:Node", "cn001", made(A, { connection: A }), B, "refresh"),
    ).toBeUndefined();
    expect(stackServerMismatch("xcat:Node", "cn001", { name: "cn001" }, B, "refresh")).toBeUndefined();
  });
});
