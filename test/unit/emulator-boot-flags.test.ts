import { describe, expect, it } from "vitest";
import { parseArgs } from "../../src/emulator/cli";
import { bootSteps, statusTime, stepReached } from "../../src/emulator/store/boot-sequence";

describe("xcat-emulator boot flags", () => {
  it("parses --boot-seconds, --fail-nodes and --hang-nodes", () => {
    const { options } = parseArgs(["--boot-seconds", "2.5", "--fail-nodes=n1,n2", "--hang-nodes", "n3"]);
    expect(options).toMatchObject({ bootSeconds: 2.5, failNodes: ["n1", "n2"], hangNodes: ["n3"] });
  });
  it("refuses a negative boot time", () => {
    expect(() => parseArgs(["--boot-seconds", "-1"])).toThrow(/invalid value for --boot-seconds: -1/);
  });
});

describe("boot steps", () => {
  it("an install goes through xCAT's statuses (GlobalDef.pm) and ends booted at the boot time", () => {
    expect(bootSteps("install", "boot", 1000)).toEqual([
      { atMs: 0, status: "powering-on" },
      { atMs: 100, status: "installing" },
      { atMs: 600, status: "booting" },
      { atMs: 1000, status: "booted" },
    ]);
    expect(bootSteps("netboot", "fail", 1000).map((s) => s.status)).toEqual([
      "powering-on",
      "netbooting",
      "failed",
    ]);
    expect(bootSteps("install", "hang", 1000).map((s) => s.status)).toEqual(["powering-on", "installing"]);
    expect(bootSteps("disk", "boot", 1000).map((s) => s.status)).toEqual([
      "powering-on",
      "booting",
      "booted",
    ]);
  });
  it("finds the step reached and writes statustime as monitorctrl.pm does", () => {
    const steps = bootSteps("install", "boot", 1000);
    expect([0, 99, 100, 999, 5000].map((ms) => stepReached(steps, ms))).toEqual([0, 0, 1, 2, 3]);
    expect(statusTime(new Date(2026, 10, 3, 8, 5, 9))).toBe("11-03-2026 08:05:09");
  });
});
