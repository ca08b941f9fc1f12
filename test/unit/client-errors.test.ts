import { describe, expect, it } from "vitest";
import {
  createXcatError,
  isAlreadyExists,
  isAuthError,
  isNetworkError,
  isNotFound,
  isResponseShapeError,
  isTimeoutError,
  isTransientError,
  isXcatError,
  XcatError,
  XcatNotFoundError,
} from "../../src/client/errors";
import {
  attributesMatch,
  bootstateOf,
  classifyFailure,
  decodeBody,
  expandCollapsedKeys,
  isEmptyListAnswer,
  isNoRowsMatched,
  missingObjectNames,
  parseErrorBody,
  splitDebugOutput,
  toWireAttributes,
} from "../../src/client/quirks";

describe("error bodies", () => {
  it("parses the web layer's string form", () => {
    expect(parseErrorBody('{"error":"Authentication failure","errorcode":"2"}\n')).toEqual({
      messages: ["Authentication failure"],
      errorcode: "2",
    });
  });

  it("parses xCAT commands' array form", () => {
    expect(
      parseErrorBody(
        '{"error":["\'foo\' is not a valid attribute name for an object type of \'node\'.","Skipping to the next attribute."],"errorcode":"1"}',
      ),
    ).toEqual({
      messages: [
        "'foo' is not a valid attribute name for an object type of 'node'.",
        "Skipping to the next attribute.",
      ],
      errorcode: "1",
    });
  });

  it("parses the numeric errorcode 3, debug preambles, HTML pages and empty bodies", () => {
    expect(parseErrorBody('{"error":"Lack of operation data.","errorcode":3}').errorcode).toBe("3");
    expect(parseErrorBody('<p>DEBUG: x\n</p>\n{"error":"Missed Action.","errorcode":"2"}').messages).toEqual([
      "Missed Action.",
    ]);
    expect(parseErrorBody("<html><body><h1>Internal Server Error</h1></body></html>").messages).toEqual([
      "Internal Server Error",
    ]);
    expect(parseErrorBody("")).toEqual({ messages: [], errorcode: undefined });
  });
});

describe("classification of failures", () => {
  it.each([
    [403, ["Could not find an object named 'n9' of type 'node'."], "XCAT_NOT_FOUND"],
    [403, ["0 object definitions have been created or modified."], "XCAT_ALREADY_EXISTS"],
    [
      403,
      [
        "A network definition called 'net1' already exists. Cannot create a definition for 'net1'.",
        "One or more...",
      ],
      "XCAT_ALREADY_EXISTS",
    ],
    [401, ["Authentication failure"], "XCAT_AUTH"],
    [403, ["Authentication failure"], "XCAT_AUTH"],
    [404, ["Unsupported resource."], "XCAT_HTTP"],
    [403, ["'foo' is not a valid attribute name for an object type of 'node'."], "XCAT_HTTP"],
    [503, ["communication with the xCAT server seems to have been ended prematurely"], "XCAT_HTTP"],
  ] as const)("%i %j → %s", (status, messages, code) => {
    expect(classifyFailure(status, messages)).toBe(code);
  });

  it("recognizes every empty-list form", () => {
    expect(isEmptyListAnswer(200, ["Could not find any object definitions to display."])).toBe(true);
    expect(isEmptyListAnswer(200, { info: "Could not find any object definitions to display." })).toBe(true);
    expect(isEmptyListAnswer(403, ["Could not get objects of type 'network'."])).toBe(true);
    expect(isEmptyListAnswer(200, ["n1"])).toBe(false);
    expect(isEmptyListAnswer(403, ["Could not find an object named 'x' of type 'node'."])).toBe(false);
    expect(isNoRowsMatched(403, ["No table rows matched specified keys or attributes"])).toBe(true);
  });

  it("extracts the missing names of a not-found", () => {
    expect(
      missingObjectNames([
        "Could not find an object named 'n8' of type 'node'.",
        "Could not find an object named 'n9' of type 'node'.",
        "other",
      ]),
    ).toEqual(["n8", "n9"]);
  });
});

describe("other quirks", () => {
  it("accepts bootstate and bootstat", () => {
    expect(bootstateOf({ bootstate: "boot" })).toBe("boot");
    expect(bootstateOf({ bootstat: "install img" })).toBe("install img");
    expect(bootstateOf({})).toBeUndefined();
  });

  it("splits xcoll's merged keys", () => {
    expect(expandCollapsedKeys({ "n1,n3": { power: "on" }, n2: { power: "off" } })).toEqual({
      n1: { power: "on" },
      n3: { power: "on" },
      n2: { power: "off" },
    });
  });

  it("joins lists and protects a literal 0 on the wire", () => {
    expect(toWireAttributes({ groups: ["all", "compute"], hidden: "0", usercomment: "" })).toEqual({
      groups: "all,compute",
      hidden: " 0",
      usercomment: "",
    });
  });

  it("matches read-back attributes the way xCAT stores them", () => {
    expect(
      attributesMatch({ groups: "compute,all", mgt: "ipmi" }, { groups: "compute,all", mgt: "ipmi" }),
    ).toBe(true);
    expect(attributesMatch({ postscripts: "mine" }, { postscripts: "syslog,remoteshell,mine" })).toBe(true);
    expect(attributesMatch({ usercomment: "" }, {})).toBe(true);
    expect(attributesMatch({ mgt: "ipmi" }, { mgt: "openbmc" })).toBe(false);
    expect(attributesMatch({ hidden: "0" }, { hidden: "0" })).toBe(true);
  });

  it("reads UTF-8 and falls back to Latin-1", () => {
    expect(decodeBody(new TextEncoder().encode('["é"]'))).toBe('["é"]');
    expect(decodeBody(Uint8Array.from([0x5b, 0x22, 0xe9, 0x22, 0x5d]))).toBe('["é"]');
  });

  it("separates debug output from JSON", () => {
    expect(splitDebugOutput('<p>DEBUG: a\n</p><p>DEBUG: b</p>\n\n["n1"]\n')).toEqual({
      debug: ["DEBUG: a", "DEBUG: b"],
      json: '["n1"]',
    });
  });
});

describe("error family", () => {
  it("builds the right class per code, with guards that do not rely on instanceof", () => {
    const error = createXcatError("XCAT_NOT_FOUND", "GET /xcatws/nodes/n9 failed: 403", { status: 403 });
    expect(error).toBeInstanceOf(XcatError);
    expect(error).toBeInstanceOf(XcatNotFoundError);
    expect(error.name).toBe("XcatNotFoundError");
    expect(isNotFound(error) && isXcatError(error)).toBe(true);
    expect(isAlreadyExists(error) || isAuthError(error) || isTransientError(error)).toBe(false);

    // A copy of the class from other code (as Pulumi's host re-creates it) still matches.
    const foreign = Object.assign(new Error("x"), { code: "XCAT_NOT_FOUND" });
    Object.defineProperty(foreign, Symbol.for("pulumi-xcat.XcatError"), { value: true });
    expect(isNotFound(foreign)).toBe(true);
    expect(isNotFound(Object.assign(new Error("x"), { code: "XCAT_NOT_FOUND" }))).toBe(false);
  });

  it("keeps cause and classifies transient failures", () => {
    const cause = new Error("socket hang up");
    const network = createXcatError("XCAT_NETWORK", "m", { cause });
    expect(network.cause).toBe(cause);
    expect(isNetworkError(network) && isTransientError(network)).toBe(true);
    expect(isTimeoutError(createXcatError("XCAT_TIMEOUT", "m"))).toBe(true);
    expect(isTransientError(createXcatError("XCAT_HTTP", "m", { status: 503 }))).toBe(true);
    expect(isTransientError(createXcatError("XCAT_HTTP", "m", { status: 500 }))).toBe(false);
    expect(isResponseShapeError(createXcatError("XCAT_RESPONSE_SHAPE", "m"))).toBe(true);
  });
});
