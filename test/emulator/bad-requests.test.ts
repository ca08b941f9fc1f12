/**
 * Bad requests get the real service's errors and change nothing (xcat-behavior.md §1.1, §3.1,
 * §8.1-8.3, §9.1; issue item 6): every case below leaves state.snapshot() unchanged.
 */
import { request } from "undici";
import { beforeAll, describe, expect, it } from "vitest";
import { ErrorBody, XCAT_CONTENT_TYPE } from "../../src/contract/envelope";
import { AUTH, call, createNode, useEmulator } from "./helpers";

describe("bad requests", () => {
  const env = useEmulator();
  let before = "";

  beforeAll(async () => {
    await createNode(env.xcat, "n1", { groups: "all", mgt: "ipmi" });
    before = env.xcat.state.snapshot();
  });

  const unchanged = () => expect(env.xcat.state.snapshot()).toBe(before);

  it("malformed JSON is 400 with the parser message as one string, errorcode 2, compact (§1.1, §9.1)", async () => {
    const reply = await call(env.xcat, "PUT", "/nodes/n1?pretty=1", { raw: '{"groups":"a",}' });
    expect(reply.status).toBe(400);
    expect(reply.contentType).toBe(XCAT_CONTENT_TYPE);
    const body = ErrorBody.parse(reply.json);
    expect(body.errorcode).toBe("2");
    expect(typeof body.error).toBe("string");
    expect(body.error).toMatch(/at character offset \d+ \(before .*\)\n$/);
    expect(reply.text.includes("\n   ")).toBe(false);
    unchanged();
  });

  // xCAT-test restapi/policy/cases0 post_policy sends this body.
  const doubleComma = '{"name":"root1",,"commands":"rpower"}';

  it("the 400 text is JSON::XS's by default, byte for byte, as the real 2.19 answered (xcatws.cgi master:3473-3480; JSON::XS 4.04, test/unit/perl-json-xs.test.ts)", async () => {
    const reply = await call(env.xcat, "POST", "/policy/11", { raw: doubleComma });
    expect([reply.status, reply.json]).toEqual([
      400,
      {
        error: `'"' expected, at character offset 16 (before ","commands":"rpower"...")\n`,
        errorcode: "2",
      },
    ]);
    unchanged();
  });

  it('a body of white space is decoded and refused; an empty one and "0" are not decoded (`if ($pdata)`, xcatws.cgi master:3472)', async () => {
    const blank = await call(env.xcat, "PUT", "/nodes/n1", { raw: " " });
    expect([blank.status, blank.json]).toEqual([
      400,
      {
        error:
          'malformed JSON string, neither tag, array, object, number, string or atom, at character offset 1 (before "(end of string)")\n',
        errorcode: "2",
      },
    ]);
    const zero = await call(env.xcat, "POST", "/nodes/n9", { raw: "0" });
    expect(zero.status).not.toBe(400);
    unchanged();
  });

  it("the CGI cuts the message at the first ` at /`, even inside the shown body text, as the real 2.19 did (xcatws.cgi master:3476-3478)", async () => {
    const reply = await call(env.xcat, "PUT", "/nodes/n1", { raw: '{"a":1} b at /x' });
    expect(reply.json).toEqual({
      error: 'garbage after JSON object, at character offset 8 (before "b\n',
      errorcode: "2",
    });
    unchanged();
  });

  it("a body that is not an object is 400 (§1.1)", async () => {
    const reply = await call(env.xcat, "POST", "/nodes/n2", { raw: "[1,2]" });
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({
      error: "put or post data must be a json object (hash/dict).",
      errorcode: "2",
    });
    unchanged();
  });

  it("body parsing wins over unknown paths and bad credentials (§8.1)", async () => {
    const reply = await call(env.xcat, "POST", "/nowhere?userName=x&userPW=y", { raw: "{", noAuth: true });
    expect(reply.status).toBe(400);
    unchanged();
  });

  it("form-encoded bodies are ignored (§1.1): chdef with no attributes changes nothing (DBobjectdefs.pm:2417-2474)", async () => {
    const reply = await call(env.xcat, "PUT", "/nodes/n1", {
      raw: "groups=evil",
      contentType: "application/x-www-form-urlencoded",
    });
    expect([reply.status, reply.text]).toEqual([200, ""]);
    unchanged();
  });

  it("wrong types: arrays under scalar attributes are dropped; non-array scripts, src and non-object options are 500 (§1.4, §3.1)", async () => {
    // xcatws.cgi:2085-2094 drops the array; chdef then has no attributes and changes nothing.
    const dropped = await call(env.xcat, "PUT", "/nodes/n1", { body: { mgt: ["kvm"] } });
    expect([dropped.status, dropped.text]).toEqual([200, ""]);
    expect((await call(env.xcat, "POST", "/nodes/n1/postscript", { body: { scripts: "a" } })).status).toBe(
      500,
    );
    expect(
      (await call(env.xcat, "POST", "/nodes/n1/nodecopy", { body: { src: 1, target: "/t" } })).status,
    ).toBe(500);
    const options = await call(env.xcat, "POST", "/nodes/n3", { body: { options: "-f", groups: "all" } });
    expect(options.status).toBe(500);
    expect(options.contentType).toMatch(/text\/html/);
    // Apache 2.4.71's page with no ServerAdmin set, byte for byte as the real 2.19's Apache sent it.
    expect(options.text).toBe(
      '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd">\n<html><head>\n<title>500 Internal Server Error</title>\n</head><body>\n<h1>Internal Server Error</h1>\n<p>The server encountered an internal error or\nmisconfiguration and was unable to complete\nyour request.</p>\n<p>Please contact the server administrator at \n [no address given] to inform them of the time this error occurred,\n and the actions you performed just before this error.</p>\n<p>More information about this error may be available\nin the server error log.</p>\n</body></html>\n',
    );
    unchanged();
  });

  it("nodecopy with neither src nor target: xdcp gets no arguments and xdsh.pm dies (xcatws.cgi master:2267-2273, xdsh.pm:294, xcatd:2105-2117)", async () => {
    const reply = await call(env.xcat, "POST", "/nodes/n1/nodecopy", { body: {} });
    expect([reply.status, reply.json]).toEqual([
      403,
      {
        error: [
          "xdsh: Can't use an undefined value as an ARRAY reference at /opt/xcat/lib/perl/xCAT_plugin/xdsh.pm line 294. [nodes: n1]",
        ],
        errorcode: "1",
      },
    ]);
    unchanged();
  });

  it("unknown tables are 403 (§5.8)", async () => {
    expect((await call(env.xcat, "GET", "/tables/nosuch/rows")).json).toEqual({
      error: ["No such table: nosuch"],
      errorcode: "1",
    });
    expect((await call(env.xcat, "PUT", "/tables/nosuch/rows/a=b", { body: { c: "d" } })).status).toBe(403);
    expect(
      (await call(env.xcat, "PUT", "/tables/nosuch/nodes/n1", { body: { nosuch: { c: "d" } } })).status,
    ).toBe(403);
    unchanged();
  });

  it("names with '/' or '..' never reach another resource; an encoded slash is Apache's 404 (§1.1, §8.3)", async () => {
    const slash = await request(`${env.xcat.url}/nodes/a%2Fb?${AUTH}`, {
      method: "POST",
      body: '{"groups":"all"}',
      headers: { "content-type": "application/json" },
    });
    expect(slash.statusCode).toBe(404);
    await slash.body.text();
    const split = await call(env.xcat, "POST", "/nodes/a/b", { body: { groups: "all" } });
    expect(split.json).toEqual({ error: "Unsupported resource.", errorcode: "2" });
    const dots = await call(env.xcat, "POST", "/nodes/a..b", { body: { groups: "all" } });
    expect(dots.status).toBe(403);
    const up = await request(`${env.xcat.url}/nodes/..%2F..%2Fetc?${AUTH}`, { method: "DELETE" });
    expect(up.statusCode).toBe(404);
    await up.body.text();
    unchanged();
  });

  it("oversized bodies are 413 (1 MiB limit)", async () => {
    const big = JSON.stringify({ groups: "all", usercomment: "x".repeat(1024 * 1024 + 10) });
    const reply = await request(`${env.xcat.url}/nodes/big?${AUTH}`, {
      method: "POST",
      body: big,
      headers: { "content-type": "application/json" },
    });
    expect(reply.statusCode).toBe(413);
    await reply.body.text();
    unchanged();
  });

  it("HEAD, OPTIONS and PATCH are 405 on a matched path and 404 elsewhere (§8.11)", async () => {
    expect((await call(env.xcat, "PATCH", "/nodes/n1", { body: {} })).json).toEqual({
      error: "request method 'PATCH' is not supported on resource '/nodes/n1'",
      errorcode: "2",
    });
    expect((await call(env.xcat, "OPTIONS", "/nodes/n1")).status).toBe(405);
    expect((await call(env.xcat, "PATCH", "/nodes/n1/nope", { body: {} })).status).toBe(404);
    expect((await call(env.xcat, "PATCH", "", { body: {} })).status).toBe(200);
    unchanged();
  });

  it("paths are case-sensitive (§1.1)", async () => {
    expect((await call(env.xcat, "GET", "/Nodes")).status).toBe(404);
  });
});

describe("bad requests on a management node whose JSON.pm has only JSON::PP", () => {
  const env = useEmulator({ jsonDecoder: "JSON::PP" });

  it("the 400 text is JSON::PP's, byte for byte (JSON::PP 4.07, as recorded in test/unit/perl-json.test.ts)", async () => {
    const reply = await call(env.xcat, "POST", "/policy/11", {
      raw: '{"name":"root1",,"commands":"rpower"}',
    });
    expect([reply.status, reply.json]).toEqual([
      400,
      {
        error:
          'unexpected end of string while parsing JSON string, at character offset 17 (before ""commands":"rpower"}...")\n',
        errorcode: "2",
      },
    ]);
  });
});
