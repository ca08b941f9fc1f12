/**
 * Records SCENARIOS against a running real Confluent and writes one fixture per scenario to
 * test/confluent-emulator/recorded/, which conformance.test.ts replays against the emulator.
 * Skipped unless CONFLUENT_RECORD=1: it needs a real Confluent on loopback (how one was run for
 * the recordings: docs/confluent-emulator-coverage.md). To re-record:
 *
 *   CONFLUENT_RECORD=1 CONFLUENT_URL=http://127.0.0.1:4005/confluent-api CONFLUENT_USER=… \
 *     CONFLUENT_PASSWORD=… npx vitest run test/confluent-emulator/record.test.ts
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Exchange, type RecordedScenario, sendStep, type Target } from "./support/exchange";
import { SCENARIOS } from "./support/scenarios";

const recording = process.env.CONFLUENT_RECORD === "1";
const baseUrl = process.env.CONFLUENT_URL ?? "http://127.0.0.1:4005/confluent-api";
const only = (process.env.CONFLUENT_SCENARIOS ?? "").split(",").filter(Boolean);

describe.skipIf(!recording)("record exchanges with a real Confluent", () => {
  for (const scenario of SCENARIOS) {
    if (only.length > 0 && !only.includes(scenario.name)) continue;
    it(scenario.name, { timeout: 300_000 }, async () => {
      const user = process.env.CONFLUENT_USER;
      const password = process.env.CONFLUENT_PASSWORD;
      expect(user && password, "CONFLUENT_USER and CONFLUENT_PASSWORD (an Administrator)").toBeTruthy();
      const target: Target = { baseUrl, user: user ?? "", password: password ?? "" };
      // Leftovers of an earlier run.
      for (const node of scenario.cleanup.nodes) {
        await sendStep(target, { what: "cleanup", method: "DELETE", path: `/nodes/${node}` });
      }
      for (const group of scenario.cleanup.groups) {
        await sendStep(target, { what: "cleanup", method: "DELETE", path: `/nodegroups/${group}` });
      }
      const exchanges: Exchange[] = [];
      for (const step of scenario.steps) {
        if (step.delayMs) await new Promise((r) => setTimeout(r, step.delayMs));
        const response = await sendStep(target, step);
        exchanges.push({ what: step.what, request: step, response });
      }
      const version = await sendStep(target, { what: "version", method: "GET", path: "/version" });
      const recorded: RecordedScenario = {
        scenario: scenario.name,
        recordedAgainst: `confluent ${typeof version.body === "string" ? version.body : JSON.stringify(version.body)}`,
        exchanges,
      };
      writeFileSync(
        join(import.meta.dirname, "recorded", `${scenario.name}.json`),
        `${JSON.stringify(recorded, null, 2)}\n`,
      );
    });
  }
});
