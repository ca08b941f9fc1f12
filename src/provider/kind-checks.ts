/**
 * The pure check of each kind whose inputs a program can hold as plain values, per backend: the
 * same `spec.check` the provider runs, callable before anything is registered. The TypeScript
 * classes run it in the program (classes/program-check.ts) and the native provider over a YAML
 * program's literal resources (native/yaml-program-check.ts), so that one preview names every
 * invalid resource although the engine stops at the first (docs/support-matrix.md N11).
 */
import { confluentGroupSpec, confluentNodeSpec } from "./confluent/attribute-objects";
import { groupSpec } from "./resources/group";
import { networkSpec } from "./resources/network";
import { nodeSpec } from "./resources/node";
import { osimageSpec } from "./resources/osimage";
import { policySpec } from "./resources/policy";
import type { CheckOutcome } from "./spec";

export type KindCheck = (news: Readonly<Record<string, unknown>>) => CheckOutcome<unknown>;

/** The pure check per kind and backend; a kind missing on a backend is refused by the provider. */
const CHECKS: Readonly<Record<string, { xcat: KindCheck; confluent?: KindCheck }>> = {
  "xcat:Node": { xcat: (news) => nodeSpec.check(news), confluent: (news) => confluentNodeSpec.check(news) },
  "xcat:Group": {
    xcat: (news) => groupSpec.check(news),
    confluent: (news) => confluentGroupSpec.check(news),
  },
  "xcat:Osimage": { xcat: (news) => osimageSpec.check(news) },
  "xcat:Network": { xcat: (news) => networkSpec.check(news) },
  "xcat:Policy": { xcat: (news) => policySpec.check(news) },
};

/** The kind's pure check on `backend`, or undefined when it has none there. */
export function kindCheck(kind: string, backend: "xcat" | "confluent"): KindCheck | undefined {
  return CHECKS[kind]?.[backend];
}
