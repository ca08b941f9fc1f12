import { describe, expect, it } from "vitest";
import { failedConditions, refusedWriteMessage, refusedWriteOutcome } from "../../src/provider/refused-write";

describe("failedConditions", () => {
  it("reads xCAT 2.18+'s sorted wording and 2.17's accumulated one, once per attribute", () => {
    // 2.18.2:perl-xCAT/xCAT/DBobjUtils.pm:2864 and 2.17.0:perl-xCAT/xCAT/DBobjUtils.pm:1231 (the
    // whole 2.16.5 answered these lines; a repeated line is read once).
    expect(
      failedConditions([
        "Cannot set the attr='bmcusername' attribute unless mgt value is ipmi or ipmi or openbmc or openbmc.",
        "Cannot set the attr='bmc' attribute unless mgt value is ipmi or ipmi or openbmc or openbmc.",
        "Cannot set the attr='bmc' attribute unless mgt value is ipmi or ipmi or openbmc or openbmc.",
        "One or more errors occured when attempting to create or modify xCAT object definitions.",
      ]),
    ).toEqual([
      { attribute: "bmcusername", condition: "mgt", values: "ipmi or openbmc" },
      { attribute: "bmc", condition: "mgt", values: "ipmi or openbmc" },
    ]);
  });

  it("reads the 'a value is provided' wording and ignores other errors", () => {
    expect(
      failedConditions(["Cannot set the 'hcp' attribute unless a value is provided for 'mgt'."]),
    ).toEqual([{ attribute: "hcp", condition: "mgt", values: "" }]);
    expect(failedConditions(["Could not find an object named 'n1' of type 'node'."])).toEqual([]);
  });
});

describe("refusedWriteOutcome", () => {
  const refused = [{ attribute: "bmc", condition: "mgt", values: "ipmi or openbmc" }];

  it("sorts what was sent by what the server reports; unset is ''", () => {
    expect(
      refusedWriteOutcome({ usercomment: "new", ip: "", bmc: "10.1.0.1" }, { usercomment: "new" }, refused),
    ).toEqual({ written: ["ip", "usercomment"], notWritten: ["bmc"] });
    expect(refusedWriteOutcome({ usercomment: "new" }, { usercomment: "old" }, refused)).toEqual({
      written: [],
      notWritten: ["usercomment"],
    });
  });

  it("a refused attribute is not written even if the server already held its value; no object, nothing written", () => {
    expect(refusedWriteOutcome({ bmc: "x" }, { bmc: "x" }, refused).notWritten).toEqual(["bmc"]);
    expect(refusedWriteOutcome({ usercomment: "a" }, undefined, refused).written).toEqual([]);
  });
});

describe("refusedWriteMessage", () => {
  const refused = [{ attribute: "bmc", condition: "mgt", values: "ipmi or openbmc" }];
  it("names the attribute, the condition, what was and was not written, never a value", () => {
    const message = refusedWriteMessage({
      what: "node",
      name: "n1",
      operation: "update",
      refused,
      outcome: { written: ["usercomment"], notWritten: ["bmc"] },
      exists: true,
    });
    expect(message).toBe(
      "pulumi-xcat: xCAT refused the update of the node 'n1': 'bmc' needs mgt to be ipmi or openbmc " +
        "(on the node itself or one of its groups). Written anyway (xCAT before 2.18 writes the rest): " +
        "'usercomment'. Not written: 'bmc'. The state records what the server holds now; fix the " +
        "condition and run up again.",
    );
  });
});
