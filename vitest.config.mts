import { defineConfig } from "vitest/config";

// Three tiers (see CONTRIBUTING.md): pure logic, components against an in-process emulator, and
// whole programs on the real Pulumi engine, run in that order (sequence.groupOrder), so that a
// broken unit fails the run in seconds. Vitest's default on a 2-core machine is one file at a
// time, which it runs after every other group; set here instead:
// - unit and integration four files at a time: the integration files spend most of their time
//   waiting on emulated boots, polls and latency (about 125 s one at a time, 50 s four at a time);
// - e2e two at a time: each file spawns the engine and a provider process and spends much of its
//   time waiting on them or on an emulator's modelled latency, so two share the two cores of the
//   machines here without starving each other.
// With XCAT_E2E_URL the e2e files share one real management node (docs/real-xcat-e2e.md) and run
// one at a time: two at once collide there (xCAT refuses a second network of the same net and
// mask, and the import test's before/after snapshot of the object tables sees the other's writes).
// `npm test` stays under 15 minutes. No test may depend on having the machine to itself (bounds on
// requests and timing leave room for a busy machine).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          maxWorkers: 4,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: "integration",
          include: ["test/{emulator,client,provider,confluent-emulator}/**/*.test.ts"],
          testTimeout: 30_000,
          maxWorkers: 4,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          globalSetup: ["test/e2e/support/global-setup.ts"],
          maxWorkers: process.env.XCAT_E2E_URL ? 1 : 2,
          sequence: { groupOrder: 1 },
          testTimeout: 10 * 60_000,
          hookTimeout: 10 * 60_000,
        },
      },
      // Long runs that watch resource use: only with `npm run test:soak`, which sets
      // PULUMI_XCAT_SOAK=1, so that `npm test` neither runs them nor sets them up.
      ...(process.env.PULUMI_XCAT_SOAK === "1"
        ? [
            {
              test: {
                name: "soak",
                include: ["test/e2e/**/*.soak.ts"],
                globalSetup: ["test/e2e/support/global-setup.ts"],
                fileParallelism: false,
                testTimeout: 60 * 60_000,
                hookTimeout: 10 * 60_000,
              },
            },
          ]
        : []),
    ],
    passWithNoTests: false,
  },
});
