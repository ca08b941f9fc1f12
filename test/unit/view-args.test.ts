/** `pulumi-xcat view`'s arguments (src/cli/view/view-command.ts parseViewArgs), `--event-log` among them. */
import { describe, expect, it } from "vitest";
import { parseViewArgs } from "../../src/cli/view/view-command";

describe("view arguments", () => {
  it("takes the event log to follow, either way of writing a flag", () => {
    expect(parseViewArgs(["--event-log", "/tmp/up.jsonl"])).toMatchObject({ eventLog: "/tmp/up.jsonl" });
    expect(parseViewArgs(["--event-log=/tmp/up.jsonl", "--stack", "dev"])).toMatchObject({
      eventLog: "/tmp/up.jsonl",
      stack: "dev",
    });
    expect(parseViewArgs([])).not.toHaveProperty("eventLog");
  });

  it("refuses an empty event log and a short interval in a sentence", () => {
    expect(parseViewArgs(["--event-log"])).toBe("--event-log needs the file `pulumi up --event-log` writes");
    expect(parseViewArgs(["--interval", "2"])).toBe(
      "--interval must be a number of seconds, at least 5, not '2'",
    );
  });
});
