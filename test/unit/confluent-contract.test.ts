/**
 * The zod schemas of src/contract/confluent/bodies.ts against every JSON body a real Confluent
 * 3.15.6 answered in the recordings (test/confluent-emulator/recorded/): a client validating with
 * them accepts what the real server sends. The schema is picked by what was asked, as a client
 * would pick it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  confluentAttributesBodySchema,
  confluentBootDeviceBodySchema,
  confluentCollectionBodySchema,
  confluentCreatedBodySchema,
  confluentDeletedBodySchema,
  confluentErrorBodySchema,
  confluentExpressionBodySchema,
  confluentLockBodySchema,
  confluentNoderangeAttributesBodySchema,
  confluentNoderangeDataBodySchema,
  confluentPowerBodySchema,
  confluentSessionInfoSchema,
  confluentVersionBodySchema,
} from "../../src/contract/confluent";
import type { RecordedScenario } from "../confluent-emulator/support/exchange";

const dir = join(import.meta.dirname, "..", "confluent-emulator", "recorded");
const scenarios = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as RecordedScenario);

function schemaFor(method: string, path: string, status: number): z.ZodType | undefined {
  if (status >= 400) return confluentErrorBodySchema;
  if (status !== 200) return undefined;
  const range = path.startsWith("/noderange/");
  if (path === "/sessions/current/info") return confluentSessionInfoSchema;
  if (path === "/version") return confluentVersionBodySchema;
  if (path.endsWith("/abbreviate") || path.endsWith("/check")) return undefined;
  if (method === "POST" && /^\/(nodes|noderange|nodegroups)\/$/.test(path)) return confluentCreatedBodySchema;
  if (method === "DELETE") return confluentDeletedBodySchema;
  if (path.endsWith("/attributes/expression")) return confluentExpressionBodySchema;
  if (/\/attributes\/(current|all)$/.test(path)) {
    return range ? confluentNoderangeAttributesBodySchema : confluentAttributesBodySchema;
  }
  if (range && /\/(power\/state|boot\/nextdevice|deployment\/lock)$/.test(path))
    return confluentNoderangeDataBodySchema;
  if (path.endsWith("/power/state")) return confluentPowerBodySchema;
  if (path.endsWith("/boot/nextdevice")) return confluentBootDeviceBodySchema;
  if (path.endsWith("/deployment/lock")) return confluentLockBodySchema;
  if (method === "GET" && path.endsWith("/")) return confluentCollectionBodySchema;
  return undefined;
}

describe("Confluent body schemas accept what a real Confluent 3.15.6 sent", () => {
  for (const scenario of scenarios) {
    it(scenario.scenario, () => {
      let checked = 0;
      for (const { request, response } of scenario.exchanges) {
        if (typeof response.body !== "object" || response.body === null) continue;
        if (!response.headers["content-type"]?.includes("json")) continue;
        if ("result" in (response.body as object)) continue; // logout: {"result": ...}
        const schema = schemaFor(request.method, request.path, response.status);
        if (!schema) continue;
        const parsed = schema.safeParse(response.body);
        expect(parsed.success, `${request.method} ${request.path}: ${parsed.error?.message ?? ""}`).toBe(
          true,
        );
        checked++;
      }
      expect(checked).toBeGreaterThan(0);
    });
  }
});
