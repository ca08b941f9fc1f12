#!/usr/bin/env node
// Renders `pulumi-xcat review --format markdown` as a GitHub pull-request comment shows it, and
// takes PNG screenshots with headless Chromium: the comment as posted (details collapsed) and
// with its "Every object" section opened. Issue #14 asks that the markdown format be seen to
// render; this is how docs/images/review-markdown*.png are made. Not part of npm test.
//
// Needs `chromium` and `cmark-gfm` (GitHub's own CommonMark renderer, with its table and
// tagfilter extensions) on PATH; on Debian: apt-get install chromium cmark-gfm fonts-noto-color-emoji.
//
//   node scripts/render-review-markdown.mjs [input] [--out docs/images/review-markdown.png]
//
// input: a `pulumi preview --json` file, reviewed with dist/cli/main.js (npm run build first),
// or a review .md file; default test/unit/fixtures/lab-preview-image-roll.json (the lab's image
// roll on two racks with a login node added, from the real engine). Writes <out> and
// <out without .png>-details.png, and keeps the HTML next to them only with --keep-html.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: "string", default: join(repoRoot, "docs/images/review-markdown.png") },
    "keep-html": { type: "boolean", default: false },
  },
});
const input = resolve(positionals[0] ?? join(repoRoot, "test/unit/fixtures/lab-preview-image-roll.json"));

function markdownOf(file) {
  if (!file.endsWith(".json")) return readFileSync(file, "utf8");
  return execFileSync(
    process.execPath,
    [join(repoRoot, "dist/cli/main.js"), "review", file, "--format", "markdown"],
    {
      encoding: "utf8",
    },
  );
}

/** GitHub turns emoji shortcodes into emoji after rendering; these are the ones review writes. */
const EMOJI = { warning: "\u26a0\ufe0f" };

/** GitHub colours ```diff blocks: inserted lines green, deleted lines red (its prettylights theme). */
function diffLines(code) {
  return code
    .split("\n")
    .map((line) =>
      line.startsWith("+")
        ? `<span class="inserted">${line}</span>`
        : line.startsWith("-")
          ? `<span class="deleted">${line}</span>`
          : line,
    )
    .join("\n");
}

function toHtml(markdown) {
  const body = execFileSync(
    "cmark-gfm",
    ["--unsafe", "-e", "table", "-e", "strikethrough", "-e", "autolink", "-e", "tagfilter"],
    { input: markdown, encoding: "utf8" },
  )
    .replace(/:([a-z_]+):/g, (text, name) => EMOJI[name] ?? text)
    .replace(
      /(<code class="language-diff">)([\s\S]*?)(<\/code>)/g,
      (_, open, code, close) => open + diffLines(code) + close,
    );
  // GitHub's comment look, approximated: its font stacks, sizes, table and code styles.
  return `<!doctype html><html><head><meta charset="utf-8"><style>
  html { overflow: hidden; }
  body { margin: 0; padding: 16px; background: #fff; width: 860px; box-sizing: border-box;
    font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, "DejaVu Sans", sans-serif, "Noto Color Emoji"; color: #1f2328; }
  .comment { border: 1px solid #d1d9e0; border-radius: 6px; }
  .header { background: #f6f8fa; border-bottom: 1px solid #d1d9e0; padding: 8px 16px; color: #59636e; border-radius: 6px 6px 0 0; }
  .header b { color: #1f2328; }
  .markdown-body { padding: 16px; }
  .markdown-body > :first-child { margin-top: 0; }
  .markdown-body > :last-child { margin-bottom: 0; }
  h3 { font-size: 1.25em; font-weight: 600; margin: 24px 0 16px; }
  p, ul, table, pre, details { margin: 0 0 16px; }
  ul { padding-left: 2em; }
  code, pre { font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 85%; }
  code { background: rgba(129,139,152,0.12); border-radius: 6px; padding: 0.2em 0.4em; white-space: break-spaces; }
  pre { background: #f6f8fa; border-radius: 6px; padding: 16px; overflow: auto; line-height: 1.45; }
  pre code { background: none; padding: 0; font-size: 100%; white-space: pre; }
  table { border-collapse: collapse; display: block; width: max-content; max-width: 100%; overflow: auto; }
  th, td { border: 1px solid #d1d9e0; padding: 6px 13px; }
  th { font-weight: 600; }
  tr:nth-child(2n) { background: #f6f8fa; }
  summary { cursor: pointer; }
  .inserted { color: #116329; background: #dafbe1; }
  .deleted { color: #82071e; background: #ffebe9; }
</style></head><body><div class="comment"><div class="header"><b>github-actions</b> bot commented</div>
<div class="markdown-body">${body}</div></div></body></html>`;
}

/** A minimal Chrome DevTools Protocol session over the browser's WebSocket (Node 22+ has one). */
async function withChromium(run) {
  const profile = mkdtempSync(join(tmpdir(), "review-chromium-"));
  const chromium = spawn(
    "chromium",
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--remote-debugging-port=0",
      `--user-data-dir=${profile}`,
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  try {
    const endpoint = await new Promise((resolvePromise, reject) => {
      let text = "";
      chromium.stderr.on("data", (chunk) => {
        text += chunk;
        const match = /DevTools listening on (ws:\S+)/.exec(text);
        if (match) resolvePromise(match[1]);
      });
      chromium.on("exit", (code) => reject(new Error(`chromium exited (${code}): ${text}`)));
    });
    const socket = new WebSocket(endpoint);
    await new Promise((resolvePromise, reject) => {
      socket.onopen = resolvePromise;
      socket.onerror = reject;
    });
    let nextId = 1;
    const pending = new Map();
    const waiters = [];
    socket.onmessage = ({ data }) => {
      const message = JSON.parse(data);
      if (message.id !== undefined) {
        const { resolve: done, reject } = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) reject(new Error(message.error.message));
        else done(message.result);
      } else {
        for (const waiter of waiters.filter((w) => w.method === message.method)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(message.params);
        }
      }
    };
    const send = (method, params = {}, sessionId) =>
      new Promise((resolvePromise, reject) => {
        const id = nextId++;
        pending.set(id, { resolve: resolvePromise, reject });
        socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      });
    const next = (method) =>
      new Promise((resolvePromise) => waiters.push({ method, resolve: resolvePromise }));
    try {
      return await run({ send, next });
    } finally {
      socket.close();
    }
  } finally {
    chromium.kill("SIGTERM");
    await new Promise((resolvePromise) => chromium.once("exit", resolvePromise));
    rmSync(profile, { recursive: true, force: true });
  }
}

async function screenshot({ send, next }, url, file, openDetails) {
  const { targetId } = await send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
  await send("Page.enable", {}, sessionId);
  const loaded = next("Page.loadEventFired");
  await send("Page.navigate", { url }, sessionId);
  await loaded;
  const expression = `${openDetails ? "document.querySelectorAll('details').forEach((d) => { d.open = true; });" : ""}
    [document.body.scrollWidth, document.body.scrollHeight]`;
  const { result } = await send("Runtime.evaluate", { expression, returnByValue: true }, sessionId);
  const [width, height] = result.value;
  await send(
    "Emulation.setDeviceMetricsOverride",
    { width, height, deviceScaleFactor: 2, mobile: false },
    sessionId,
  );
  const { data } = await send(
    "Page.captureScreenshot",
    { format: "png", clip: { x: 0, y: 0, width, height, scale: 1 } },
    sessionId,
  );
  writeFileSync(file, Buffer.from(data, "base64"));
  await send("Target.closeTarget", { targetId });
  console.log(`${file} (${width}x${height} CSS px, 2x)`);
}

const out = resolve(args.out);
const html = out.replace(/\.png$/, ".html");
writeFileSync(html, toHtml(markdownOf(input)));
try {
  await withChromium(async (cdp) => {
    await screenshot(cdp, pathToFileURL(html).href, out, false);
    await screenshot(cdp, pathToFileURL(html).href, out.replace(/\.png$/, "-details.png"), true);
  });
} finally {
  if (!args["keep-html"]) rmSync(html, { force: true });
}
