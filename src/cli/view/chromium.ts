/**
 * Headless Chromium, for `view --snapshot x.png` and the view's browser test: found as
 * PULUMI_XCAT_CHROMIUM, else the Debian chromium-headless-shell scripts/fetch-chromium.sh unpacks
 * into the toolchain's cache, else `chromium-headless-shell` or `chromium` on PATH. Driven by its own command line (`--headless --screenshot`, `--dump-dom`): no npm library
 * and no browser download of its own (docs/view.md says why).
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

const CANDIDATES = ["chromium-headless-shell", "chromium"];

/** Where scripts/fetch-chromium.sh puts Debian's chromium-headless-shell (the toolchain's cache). */
export function cachedChromiumDir(env: NodeJS.ProcessEnv = process.env): string {
  const cache = env.PULUMI_XCAT_CACHE ?? join(env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pulumi-xcat");
  return join(cache, "chromium-headless-shell");
}

function runs(binary: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(binary, ["--version"], { timeout: 60_000 }, (error) => resolve(error === null));
  });
}

/** The Chromium binary to use; throws a sentence saying how to get one. */
export async function findChromium(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const given = env.PULUMI_XCAT_CHROMIUM;
  if (given) {
    if (await runs(given)) return given;
    throw new Error(`PULUMI_XCAT_CHROMIUM is ${given}, which does not run (\`${given} --version\` failed)`);
  }
  for (const candidate of [join(cachedChromiumDir(env), "chromium"), ...CANDIDATES]) {
    if (await runs(candidate)) return candidate;
  }
  throw new Error(
    "no Chromium found for a PNG: set PULUMI_XCAT_CHROMIUM to a Chromium binary, or put chromium on PATH " +
      "(the project's toolchain fetches Debian's: `eval \"$(npm run --silent shell-env)\"`); an .svg needs none",
  );
}

/**
 * Common flags: no first-run work, no network of its own. `--no-sandbox` only when running as root,
 * where Chromium refuses to start otherwise; it loads only our own page or file.
 */
export function chromiumFlags(): string[] {
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  return [
    "--headless",
    "--disable-gpu",
    "--no-first-run",
    "--hide-scrollbars",
    "--disable-background-networking",
    ...(root ? ["--no-sandbox"] : []),
  ];
}

export function runChromium(binary: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      binary,
      [...chromiumFlags(), ...args],
      { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, timeout: 300_000 },
      (error, stdout, stderr) => {
        if (error)
          reject(
            new Error(`Chromium failed: ${stderr.trim().split("\n").slice(-3).join(" ") || error.message}`),
          );
        else resolve(stdout);
      },
    );
  });
}

/** The SVG's own size, from its width and height attributes. */
export function svgSize(svg: string): { width: number; height: number } {
  const width = Number(/<svg[^>]*\swidth="(\d+)"/.exec(svg)?.[1] ?? 1200);
  const height = Number(/<svg[^>]*\sheight="(\d+)"/.exec(svg)?.[1] ?? 800);
  return { width, height };
}

/** Writes the drawing as a PNG of its own size, rendered by headless Chromium. */
export async function renderPng(svg: string, file: string): Promise<void> {
  const binary = await findChromium();
  const dir = await mkdtemp(join(tmpdir(), "pulumi-xcat-view-"));
  try {
    const source = join(dir, "drawing.svg");
    await writeFile(source, svg);
    const { width, height } = svgSize(svg);
    await runChromium(binary, [
      `--screenshot=${file}`,
      `--window-size=${width},${height}`,
      `file://${source}`,
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
