/**
 * `pulumi-xcat review` on what the real engine prints. The fixture is `pulumi preview --json` of
 * the lab (pulumi v3.259.0), recorded after `npm run demo` with `npm run pulumi -- config set
 * nodesPerRack 15` and `config set vms 5`, with the `__provider` inputs removed (they are long
 * and say nothing). It showed that the engine lists no unchanged steps and gives dynamic
 * resources no `detailedDiff`, so review compares the inputs itself (issue #14).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ClusterFacts } from "../../src/cli/review/cluster-facts";
import { clusterReadsNeeded, summarizePlan } from "../../src/cli/review/plan-summary";
import { renderMarkdown, renderText } from "../../src/cli/review/render-summary";

const preview: unknown = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures/lab-preview-rack-shrink.json"), "utf8"),
);

describe("review of a real lab preview", () => {
  it("names the deleted nodes first and what changed on the Deployment and PowerState", () => {
    const text = renderText(summarizePlan(preview));
    expect(text.trimEnd().split("\n")).toEqual([
      "! 2 nodes deleted: r[01-02]n16",
      "- 2 nodes r[01-02]n16 in group compute",
      "~ batchSize: 16 → 15; nodes: - r[01-02]n16 on compute-image (1 Deployment)",
      "    no longer covered (they keep their image): r[01-02]n16 (2 nodes)",
      "~ nodes: - r[01-02]n16 on compute-power (1 PowerState)",
      "    no longer held (power left as it is): r[01-02]n16 (2 nodes)",
      "+ 1 node vm05 in group vms",
      "    vm05: ip 10.0.0.105, mac 52:54:00:00:01:05, bmc not read (review --offline)",
      "+ 1 VirtualMachine vm05",
      "= hosts, DNS, DHCP entries: vm05 added",
      "= DNS, DHCP entries: r[01-02]n16 removed",
      "= /etc/hosts lines stay for r[01-02]n16: xCAT's REST API has no makehosts -d (run it on the management node)",
      "= DNS and DHCP as listed if the management node serves them (site.nameservers, site.dhcpsetup not read)",
      "2 to create, 0 to adopt, 2 to update, 0 to replace, 2 to delete, 53 unchanged",
    ]);
  });
});

/**
 * The sample of docs/review-and-sign-off.md (moved there from the README): `pulumi preview --json` of the demo lab with two racks of 32 after
 * `config set computeOs rhels9.5` and `config set loginNodes 2` (pulumi v3.259.0, `__provider`
 * inputs removed). The same change is reviewed live by test/e2e/review-ci.test.ts.
 */
describe("review of the lab's image roll (docs/review-and-sign-off.md's sample)", () => {
  const roll: unknown = JSON.parse(
    readFileSync(join(import.meta.dirname, "fixtures/lab-preview-image-roll.json"), "utf8"),
  );
  // What review reads for the group change (nodelist and nodetype rows, see clusterReadsNeeded):
  // the lab's compute group and its 64 nodes, each holding the image its Deployment's nodeset
  // wrote into its own nodetype row (destiny.pm, 2.18.2:286-392), as the live e2e review reads them.
  const nodes = ["r01", "r02"].flatMap((r) =>
    Array.from({ length: 32 }, (_, i) => [
      `${r}n${String(i + 1).padStart(2, "0")}`,
      `compute,rack${r.slice(1)},all`,
    ]),
  );
  const lab = new ClusterFacts({
    nodelist: nodes.map(([node, groups]) => ({ node: node as string, groups: groups as string })),
    nodetype: [
      { node: "compute", provmethod: "rhels9.4-x86_64-netboot-compute" },
      ...nodes.map(([node]) => ({ node: node as string, provmethod: "rhels9.4-x86_64-netboot-compute" })),
    ],
  });
  // The lab's site: the management node 10.0.0.1 serves DNS (examples/lab/index.ts) and DHCP.
  const site = { master: "10.0.0.1", nameservers: "10.0.0.1" };
  const text = renderText(summarizePlan(roll, lab, site));

  it("needs one read, of the tables behind the group's attributes", () => {
    expect(clusterReadsNeeded(roll)?.attributes).toEqual([
      "arch",
      "bmcusername",
      "installnic",
      "mgt",
      "netboot",
      "primarynic",
      "provmethod",
    ]);
  });

  it("puts the deleted image and the Deployment's 64 nodes first, then each change and what it reaches", () => {
    const image = (os: string) => `${os}-x86_64-netboot-compute`;
    expect(text.trimEnd().split("\n")).toEqual([
      `! 1 Osimage deleted: ${image("rhels9.4")}`,
      "! 64 nodes deployed by a Deployment: r[01-02]n[01-32]",
      `- 1 Osimage ${image("rhels9.4")}`,
      `~ osimage: ${image("rhels9.4")} → ${image("rhels9.5")} on compute-image (1 Deployment)`,
      `    deploys ${image("rhels9.5")} (image changed): r[01-02]n[01-32] (64 nodes)`,
      `~ provmethod: ${image("rhels9.4")} → ${image("rhels9.5")} on compute (1 Group)`,
      "    reaches none of its 64 members: each sets this attribute itself or from an earlier group",
      "+ 1 node login02 in group service",
      "    login02: ip 10.0.0.21, mac 52:54:00:00:00:12, bmc 10.1.0.12",
      `+ 1 Osimage ${image("rhels9.5")}`,
      "= hosts, DNS, DHCP entries: login02 added",
      "2 to create, 0 to adopt, 2 to update, 0 to replace, 1 to delete, 86 unchanged",
    ]);
  });

  it("is what docs/review-and-sign-off.md shows, and the markdown lines it quotes are what review writes", () => {
    const readme = readFileSync(join(import.meta.dirname, "../../docs/review-and-sign-off.md"), "utf8");
    expect(readme).toContain(`\`\`\`\n${text}\`\`\``);
    const markdown = renderMarkdown(summarizePlan(roll, lab, site)).split("\n");
    const quoted = /```markdown\n([\s\S]*?)```/.exec(readme)?.[1]?.trimEnd().split("\n") ?? [];
    expect(quoted.length).toBeGreaterThan(3);
    for (const line of quoted) expect(markdown).toContain(line);
  });
});

// `pulumi preview --json` (pulumi v3.259.0) of a YAML program whose group g1 lost `protect: true`
// and gained netboot, next to an unchanged protected-free g2: the engine's step for a
// protect-only change is a `same` (its text output only adds a 🔓), so review reads the option
// from the states and says it on a line of its own.
describe("review of a preview that removes protect", () => {
  const unprotect: unknown = JSON.parse(
    readFileSync(join(import.meta.dirname, "fixtures/preview-unprotect.json"), "utf8"),
  );

  it("says the removal on its own line and among the dangers", () => {
    const summary = summarizePlan(unprotect);
    expect(renderText(summary).trimEnd().split("\n")).toEqual([
      "! 1 group whose members' values change (members not read): g1",
      "! 1 object no longer protected (a later change can delete it): g1",
      "~ protect removed from 1 Group g1",
      "~ netboot: (none) → xnba on g1 (1 Group)",
      "    members and their values not read (review --offline)",
      "0 to create, 0 to adopt, 1 to update, 0 to replace, 0 to delete, 2 unchanged",
    ]);
    expect(summary.dangers.map((danger) => danger.kind)).toEqual(["group", "unprotect"]);
    expect(renderMarkdown(summary)).toContain("| unprotect xcat:Group | protect removed | `g1` | 1 |");
  });
});
