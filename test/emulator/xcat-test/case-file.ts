/**
 * Reads the case files of xCAT's own test driver (xCAT-test/autotest/testcase/...): blocks from
 * `start:<name>` to `end`, holding `cmd:`, `check:`, `cmdcheck:` and attribute lines such as
 * `hcp:`. The layout follows xcattest's reader (/tmp/xc/xCAT-test/xcattest:1190-1225): checks
 * and cmdchecks belong to the command before them.
 */

/** One command of a case with the checks that follow it. */
export interface CaseStep {
  readonly cmd: string;
  readonly checks: string[];
  readonly cmdchecks: string[];
}

/** One `start:` ... `end` block. */
export interface TestCase {
  readonly name: string;
  /** `hcp:` line: the case needs hardware of that kind. */
  readonly hcp?: string;
  readonly steps: CaseStep[];
}

/** Parses the text of one case file into its cases, in file order. */
export function parseCaseFile(text: string): TestCase[] {
  const cases: TestCase[] = [];
  let current: { name: string; hcp?: string; steps: CaseStep[] } | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const field = /^(\w+)\s*:\s*(.*)$/.exec(line);
    if (line === "end") {
      if (current) cases.push(current);
      current = undefined;
    } else if (field?.[1] === "start") {
      current = { name: field[2] ?? "", steps: [] };
    } else if (current && field) {
      const [, key, value = ""] = field;
      if (key === "cmd") current.steps.push({ cmd: value, checks: [], cmdchecks: [] });
      else if (key === "check") current.steps.at(-1)?.checks.push(value);
      else if (key === "cmdcheck") current.steps.at(-1)?.cmdchecks.push(value);
      else if (key === "hcp") current.hcp = value;
    }
  }
  return cases;
}

/** Splits a command line as sh does for the quoting these files use (single and double quotes). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const ch of line) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else word = (word ?? "") + ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      word = word ?? "";
    } else if (/\s/.test(ch)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? "") + ch;
  }
  if (word !== undefined) words.push(word);
  return words;
}
