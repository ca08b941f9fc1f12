/**
 * Every relative link in README.md and docs/**\/*.md leads somewhere: the file or folder exists,
 * and a `#anchor` names a heading of the target page (GitHub's slugs). Links to other sites are
 * not fetched (the tests reach nothing off the machine).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const repoRoot = resolve(import.meta.dirname, "../..");

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".md"))
    .map((file) => join(dir, file));
}

/** The text outside fenced code blocks and inline code, where links are links. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const text = readFileSync(file, "utf8").replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  for (const match of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug((match[1] ?? "").replace(/`/g, ""));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const match of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1] ?? "");
  return anchors;
}

/** Each relative link of a page: `[text](target)`, `<img src>` and `<a href>`. */
function relativeLinks(text: string): string[] {
  const body = prose(text);
  const targets = [
    ...[...body.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? ""),
    ...[...body.matchAll(/<(?:img|a)\s[^>]*(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? ""),
  ];
  return targets.filter((target) => target !== "" && !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** Why a link from `file` is dead, or undefined. */
function deadReason(file: string, target: string): string | undefined {
  const [path = "", anchor] = target.split("#");
  const destination = path === "" ? file : resolve(dirname(file), decodeURIComponent(path));
  if (!existsSync(destination)) return "no such file";
  if (anchor === undefined || anchor === "") return undefined;
  if (statSync(destination).isDirectory() || !destination.endsWith(".md")) return "an anchor into a non-page";
  return anchorsOf(destination).has(anchor.toLowerCase()) ? undefined : `no heading #${anchor}`;
}

const pages = [join(repoRoot, "README.md"), ...markdownFiles(join(repoRoot, "docs"))];

describe("links in README.md and docs/", () => {
  it("finds the pages and their links", () => {
    expect(pages.length).toBeGreaterThan(10);
    expect(relativeLinks(readFileSync(join(repoRoot, "README.md"), "utf8")).length).toBeGreaterThan(10);
  });

  it("no relative link is dead", () => {
    const dead = pages.flatMap((file) =>
      relativeLinks(readFileSync(file, "utf8")).flatMap((target) => {
        const reason = deadReason(file, target);
        return reason ? [`${relative(repoRoot, file)}: (${target}) ${reason}`] : [];
      }),
    );
    expect(dead).toEqual([]);
  });

  it("tells a dead link, a dead anchor and a live one apart", () => {
    const readme = join(repoRoot, "README.md");
    expect(deadReason(readme, "docs/no-such-page.md")).toBe("no such file");
    expect(deadReason(readme, "#no-such-heading")).toBe("no heading #no-such-heading");
    expect(deadReason(readme, "#two-commands")).toBeUndefined();
    expect(relativeLinks('[a](x.md) `[b](y.md)` [c](https://example.org) <img src="i.png">')).toEqual([
      "x.md",
      "i.png",
    ]);
    expect(slug("Provisioning: `Deployment`".replace(/`/g, ""))).toBe("provisioning-deployment");
  });
});
