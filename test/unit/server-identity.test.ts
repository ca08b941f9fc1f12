/**
 * Issue #36 item 2: which settings name another management server (a move) and which only
 * another account or transport on the same one (an update). Both the native provider's
 * DiffConfig and a resource's `connection` diff ask src/provider/server-identity.ts.
 */
import { describe, expect, it } from "vitest";
import { movedBy, serverIdentity, serverOfConnection } from "../../src/provider/server-identity";
import { UNKNOWN } from "../../src/provider/validation";

const moved = (before: Record<string, unknown>, after: Record<string, unknown>) =>
  movedBy(serverIdentity(before), serverIdentity(after));

describe("server identity", () => {
  it("another host, port or path is another server", () => {
    expect(moved({ url: "https://mn1/xcatws" }, { url: "https://mn2/xcatws" })).toEqual(["url"]);
    expect(moved({ url: "https://mn1:8443" }, { url: "https://mn1" })).toEqual(["url"]);
  });

  it("another backend is another server, even at the same host", () => {
    expect(moved({ url: "https://mn1" }, { url: "https://mn1", backend: "confluent" })).toEqual([
      "url",
      "backend",
    ]);
    expect(
      moved({ url: "https://mn1/api", backend: "xcat" }, { url: "https://mn1/api", backend: "confluent" }),
    ).toEqual(["backend"]);
  });

  it("the same server written differently is the same server (the path the client adds, case, default port)", () => {
    expect(moved({ url: "https://MN1:443" }, { url: "https://mn1/xcatws" })).toEqual([]);
    expect(
      moved(
        { url: "https://cf1", backend: "confluent" },
        { url: "https://cf1/confluent-api", backend: "Confluent" },
      ),
    ).toEqual([]);
    expect(moved({ url: "https://mn1", backend: "xcat" }, { url: "https://mn1/xcatws" })).toEqual([]);
  });

  it("credentials, CA and insecure never move anything", () => {
    expect(
      moved(
        { url: "https://mn1", username: "root", password: "a", insecure: false },
        { url: "https://mn1", username: "ops", password: "b", insecure: true, caCert: "/ca.pem" },
      ),
    ).toEqual([]);
  });

  it("a setting left out comes from the fallback (the stack, or the environment)", () => {
    const stack = { url: "https://mn1/xcatws", backend: "xcat" };
    expect(movedBy(serverIdentity({}, stack), serverIdentity({ url: "https://mn1" }, stack))).toEqual([]);
    expect(movedBy(serverIdentity({}, stack), serverIdentity({ url: "https://mn2" }, stack))).toEqual([
      "url",
    ]);
  });

  it("an unknown setting (a preview) counts as a move, so the preview never shows less than up does", () => {
    expect(moved({ url: "https://mn1" }, { url: UNKNOWN })).toEqual(["url", "backend"]);
    expect(moved({ url: "https://mn1", backend: UNKNOWN }, { url: "https://mn1" })).toEqual([
      "url",
      "backend",
    ]);
  });

  it("a resource's connection, or the stack's without one", () => {
    const stack = { url: "https://mn1/xcatws" };
    expect(
      movedBy(serverOfConnection(undefined, stack), serverOfConnection({ url: "https://mn1" }, stack)),
    ).toEqual([]);
    expect(
      movedBy(
        serverOfConnection(undefined, stack),
        serverOfConnection({ url: "https://cf1", backend: "confluent" }, stack),
      ),
    ).toEqual(["url", "backend"]);
    expect(movedBy(serverOfConnection(undefined, stack), serverOfConnection(UNKNOWN, stack))).toEqual([
      "url",
      "backend",
    ]);
  });
});
