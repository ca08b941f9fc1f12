/**
 * The README's client example (examples/client-script) runs end to end against a fresh emulator.
 */
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { main } from "../../examples/client-script/index.mjs";
import type { RunningEmulator } from "../../src/emulator";
import { emulator, PASSWORD, USER } from "./support/emulator";

// The example imports the published package name; point it at the sources under test (the
// client's part of the package, without loading Pulumi).
vi.mock("pulumi-xcat", () => import("../../src/client"));

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await emulator();
});

afterAll(async () => {
  await emu.close();
});

it("defines nodes, reads them back, powers them on and reads their event logs", async () => {
  const lines: string[] = [];
  const result = await main({
    url: emu.url,
    username: USER,
    password: PASSWORD,
    log: (line) => lines.push(line),
  });

  expect([...result.nodes.keys()]).toEqual(["demo01", "demo02", "demo03"]);
  expect(result.nodes.get("demo02")).toMatchObject({
    groups: "demo,all",
    mgt: "ipmi",
    bmc: "10.0.1.12",
    ip: "10.0.0.12",
  });
  expect(result.power).toEqual({ demo01: "on", demo02: "on", demo03: "on" });
  for (const log of Object.values(result.eventlog)) expect(log.length).toBeGreaterThan(0);
  expect(lines[0]).toMatch(/^token obtained; expires /);
  expect(lines.join("\n")).not.toContain(PASSWORD);

  // A second run finds the nodes defined and updates them instead.
  const again: string[] = [];
  await main({ url: emu.url, username: USER, password: PASSWORD, log: (line) => again.push(line) });
  expect(again.filter((line) => line.endsWith("existed; updated it"))).toHaveLength(3);
});
