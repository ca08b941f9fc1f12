import { describe, expect, it } from "vitest";
import {
  createRedactor,
  REDACTED,
  redactBody,
  redactHeaders,
  redactText,
  redactUrl,
} from "../../src/client/redact";

describe("redaction", () => {
  it("hides userPW and other secret query values, and URL credentials", () => {
    expect(redactUrl("https://mn/xcatws/nodes?userName=root&userPW=cluster&pretty=1")).toBe(
      `https://mn/xcatws/nodes?userName=root&userPW=${REDACTED}&pretty=1`,
    );
    expect(redactUrl("https://root:cluster@mn/xcatws")).toBe(`https://root:${REDACTED}@mn/xcatws`);
    expect(redactUrl("/xcatws/tokens?token=abc")).toBe(`/xcatws/tokens?token=${REDACTED}`);
    expect(redactUrl("/xcatws/nodes/n01")).toBe("/xcatws/nodes/n01");
  });

  it("hides the token header", () => {
    expect(redactHeaders({ "X-Auth-Token": "0f3e", accept: "application/json" })).toEqual({
      "X-Auth-Token": REDACTED,
      accept: "application/json",
    });
    expect(redactHeaders({ "x-auth-token": "0f3e" })["x-auth-token"]).toBe(REDACTED);
  });

  it("hides secret body fields at any depth", () => {
    expect(
      redactBody({
        userName: "root",
        userPW: "cluster",
        token: { id: "abc", expire: "never" },
        nodes: [{ bmcpassword: "x", groups: "all" }],
      }),
    ).toEqual({
      userName: "root",
      userPW: REDACTED,
      token: REDACTED,
      nodes: [{ bmcpassword: REDACTED, groups: "all" }],
    });
  });

  it("hides known secrets, secret JSON fields and debug XML in free text", () => {
    const debug =
      "<p>DEBUG: request xml=<xcatrequest><becomeuser><username>root</username><password>cluster</password></becomeuser></xcatrequest></p>";
    expect(redactText(debug)).not.toContain("cluster");
    expect(redactText('{"userPW":"s3cret","userName":"root"}')).toBe(
      `{"userPW":"${REDACTED}","userName":"root"}`,
    );
    expect(redactText("login failed: bmcpassword=hunter2 rejected")).toBe(
      `login failed: bmcpassword=${REDACTED} rejected`,
    );
    expect(redactText("token 6b7e9a0c-1 refused", ["6b7e9a0c-1"])).toBe(`token ${REDACTED} refused`);
  });

  it("remembers secrets added later", () => {
    const redactor = createRedactor(["cluster"]);
    redactor.add("tok-123456");
    expect(redactor.text("cluster tok-123456")).toBe(`${REDACTED} ${REDACTED}`);
    expect(redactor.url("/xcatws/nodes?userPW=cluster")).toBe(`/xcatws/nodes?userPW=${REDACTED}`);
  });

  it("leaves ordinary text alone", () => {
    expect(redactText("PUT /xcatws/nodes/n01 failed: 403 errorcode=1")).toBe(
      "PUT /xcatws/nodes/n01 failed: 403 errorcode=1",
    );
    expect(redactBody({ tokenexpiredays: "1" })).toEqual({ tokenexpiredays: "1" });
  });
});
