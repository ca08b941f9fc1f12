/** The lab program (examples/lab, the root Pulumi.yaml's program) as a Pulumi project of its own, below `sandbox`. */
import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";

const repoRoot = resolve(import.meta.dirname, "../../..");

export async function labProgram(sandbox: string): Promise<string> {
  const dir = await mkdtemp(join(sandbox, "lab-program-"));
  await cp(join(repoRoot, "examples/lab"), dir, { recursive: true });
  const rootProject = await readFile(join(repoRoot, "Pulumi.yaml"), "utf8");
  await writeFile(join(dir, "Pulumi.yaml"), rootProject.replace(/^main: .*$/m, "main: index.ts"));
  return dir;
}
