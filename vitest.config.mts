import { defineConfig } from "vitest/config";

// Three tiers (see CONTRIBUTING.md): pure logic, components against an in-process emulator, and
// whole programs on the real Pulumi engine. The e2e tier runs its files one at a time: each
// spawns the engine and a provider process, and the machines here have two cores.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
        },
      },
      {
        test: {
          name: "integration",
          include: ["test/{emulator,client,provider,confluent-emulator}/**/*.test.ts"],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          globalSetup: ["test/e2e/support/global-setup.ts"],
          fileParallelism: false,
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
