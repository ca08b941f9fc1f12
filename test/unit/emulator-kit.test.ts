/**
 * The parts both emulators share (src/emulator-kit): their command line and their SQLite
 * transactions. Each emulator's own flags are tested with its CLI (test/emulator/cli.test.ts,
 * test/confluent-emulator/behaviour.test.ts).
 */
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import {
  type CommonEmulatorOptions,
  inTransaction,
  readCommandLine,
  readCommonOption,
} from "../../src/emulator-kit";

function parse(argv: readonly string[]): { options: CommonEmulatorOptions; help: boolean } {
  const options: CommonEmulatorOptions = {};
  const { help } = readCommandLine(argv, (option) => {
    if (!readCommonOption(option, options)) throw option.unknown();
  });
  return { options, help };
}

describe("the emulators' command line", () => {
  it("reads the options every emulator takes, as --flag value or --flag=value", () => {
    expect(
      parse(["--port=0", "--host", "::1", "--boot-seconds", "1.5", "--fail-nodes", "n1,,n2", "--data=x.db"]),
    ).toEqual({
      options: { port: 0, host: "::1", bootSeconds: 1.5, failNodes: ["n1", "n2"], dataFile: "x.db" },
      help: false,
    });
  });

  it("stops at --help, and names the flag of anything it cannot use", () => {
    expect(parse(["--help", "--bogus"]).help).toBe(true);
    expect(() => parse(["--port", "70000"])).toThrow("invalid value for --port: 70000");
    expect(() => parse(["--user"])).toThrow("--user needs a value");
    expect(() => parse(["--user", "--port", "1"])).toThrow("--user needs a value");
    expect(() => parse(["--bogus"])).toThrow("unknown option: --bogus");
  });
});

describe("inTransaction", () => {
  it("commits what fn wrote, rolls back all of it when fn throws, and joins an open one", () => {
    const db = new DatabaseSync(":memory:");
    db.exec("CREATE TABLE t (v TEXT)");
    const count = () => (db.prepare("SELECT count(*) AS n FROM t").get() as { n: number }).n;
    inTransaction(db, () => db.exec("INSERT INTO t VALUES ('a')"));
    expect(count()).toBe(1);
    expect(() =>
      inTransaction(db, () => {
        db.exec("INSERT INTO t VALUES ('b')");
        inTransaction(db, () => db.exec("INSERT INTO t VALUES ('c')"));
        throw new Error("half-way");
      }),
    ).toThrow("half-way");
    expect(count()).toBe(1);
    expect(db.isTransaction).toBe(false);
    db.close();
  });
});
