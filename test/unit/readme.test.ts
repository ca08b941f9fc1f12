/**
 * docs/client.md (the README's map links it) quotes examples/client-script, which the client tests run: the
 * calls it shows must be the script's calls, in the script's order.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, it } from "vitest";

const repoRoot = resolve(import.meta.dirname, "../..");

it("docs/client.md's client snippet makes the same client calls as examples/client-script, in order", () => {
  const page = readFileSync(resolve(repoRoot, "docs/client.md"), "utf8");
  const section = page.slice(page.indexOf("# The client on its own"));
  const snippet = /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  const script = readFileSync(resolve(repoRoot, "examples/client-script/index.mts"), "utf8");
  const calls = (text: string) => [...text.matchAll(/client\.([a-z]+\.[a-zA-Z]+|close)\(/g)].map((m) => m[1]);
  expect(calls(snippet)).toEqual([
    "tokens.create",
    "nodes.create",
    "nodes.getMany",
    "nodes.setPower",
    "nodes.getPower",
    "nodes.getEventlog",
    "close",
  ]);
  expect(calls(script).filter((call) => calls(snippet).includes(call))).toEqual(calls(snippet));
});
