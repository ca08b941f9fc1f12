/**
 * What the view asks the Pulumi CLI, in the project's directory and with its backend and
 * passphrase, as `drift` does: the stack's config (`pulumi config --json`; a secret shows as
 * `[secret]` and is decrypted by review's `settingsForStackConfig` with `pulumi config get`) and
 * its state (`pulumi stack export`, without `--show-secrets`: the view needs none of its secrets).
 */
import { execFile } from "node:child_process";

function pulumiJson(args: readonly string[], what: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    execFile(
      "pulumi",
      [...args, "--non-interactive"],
      { encoding: "utf8", maxBuffer: 512 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
          reject(
            new Error(
              missing
                ? "the `pulumi` command is not on PATH"
                : `${what} failed: ${stderr.trim() || error.message}`,
            ),
          );
          return;
        }
        try {
          resolve(JSON.parse(stdout));
        } catch {
          reject(new Error(`${what} printed no JSON`));
        }
      },
    );
  });
}

/** The stack's config as `preview --json` shows it: `xcat:url` → value, a secret as `[secret]`. */
export async function stackConfig(stack: string): Promise<Record<string, string>> {
  const shown = (await pulumiJson(
    ["config", "--json", "--stack", stack],
    `\`pulumi config\` of stack ${stack}`,
  )) as Record<string, { value?: unknown; secret?: boolean }>;
  const config: Record<string, string> = {};
  for (const [key, entry] of Object.entries(shown ?? {})) {
    if (entry?.secret) config[key] = "[secret]";
    else if (entry?.value !== undefined) config[key] = String(entry.value);
  }
  return config;
}

/** The stack's state, parsed. */
export function stackState(stack: string): Promise<unknown> {
  return pulumiJson(["stack", "export", "--stack", stack], `\`pulumi stack export\` of stack ${stack}`);
}
