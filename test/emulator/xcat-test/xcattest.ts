/**
 * How xCAT's test driver runs one case (/tmp/xc/xCAT-test/xcattest): `$$var` replaced from the
 * configuration when the case is loaded (getvar, :1908-1925), every command run in turn with its
 * output captured (stdout and stderr, each line chomped, joined with newlines; runcmd, :1680-1700),
 * then its `check:` lines until one fails and its `cmdcheck:` commands, which fail when they
 * exit non-zero (run_case, :1384-1522). A failed check does not stop the case: its later commands
 * still run (and change the MN), only their checks are skipped.
 */

import type { TestCase } from "./case-file";
import type { CommandRun } from "./restapitest";

/** Runs one command line of a case on the "management node". */
export type CommandRunner = (line: string) => Promise<CommandRun>;

/** getvar (:1908-1925): `$$name` from the configuration; a missing one makes the case invalid. */
export function substituteVariables(text: string, variables: Readonly<Record<string, string>>): string {
  return text.replace(/\$\$(\w+)/g, (_all, name: string) => {
    const value = variables[name];
    if (value === undefined) throw new Error(`miss attribute ${name}`);
    return value;
  });
}

/** Runs a case as run_case does; returns why it failed, or "" when it passed. */
export async function runCase(
  testCase: TestCase,
  run: CommandRunner,
  variables: Readonly<Record<string, string>>,
): Promise<string> {
  let failure = "";
  for (const step of testCase.steps) {
    const line = substituteVariables(step.cmd, variables);
    const result = await run(line);
    // :1438-1440: the lines chomped and joined, i.e. the text without its final newline.
    const output = result.output.endsWith("\n") ? result.output.slice(0, -1) : result.output;
    for (const check of step.checks) {
      if (failure) break;
      const problem = evaluateCheck(substituteVariables(check, variables), result.rc, output);
      if (problem) failure = `${line}: check ${check} failed (${problem}); output ${result.output}`;
    }
    for (const cmdcheck of step.cmdchecks) {
      const checked = await run(substituteVariables(cmdcheck, variables));
      if (checked.rc !== 0 && !failure)
        failure = `${line}: cmdcheck ${cmdcheck} exited ${checked.rc}; output ${result.output}`;
    }
  }
  return failure;
}

/** One `check:` line (:1422-1503): undefined when it holds, else what was seen. */
function evaluateCheck(check: string, rc: number, output: string): string | undefined {
  const rcCheck = /rc\s*([=!]+)\s*(\d+)/.exec(check);
  if (rcCheck) {
    const [, op, value] = rcCheck;
    const fails = (op === "!=" && rc === Number(value)) || (op === "==" && rc !== Number(value));
    return fails ? `rc ${rc}` : undefined;
  }
  const outputCheck = /output\s*(==|!=|=~|!~)\s*(\S.*)/.exec(check);
  if (outputCheck) {
    const [, op, value = ""] = outputCheck;
    const holds =
      op === "=~"
        ? new RegExp(value).test(output)
        : op === "!~"
          ? !new RegExp(value).test(output)
          : op === "=="
            ? output === value
            : output !== value;
    return holds ? undefined : "output";
  }
  return "unrecognized check";
}
