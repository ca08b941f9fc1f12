/** Types of bench/not-waited.mjs, for the tests that import it. */
export interface StepResult {
  wallMs: number;
  requests: number;
  mnCpuS: number;
  notWaited: boolean;
}

export declare function wallCell(result: StepResult): string;
export declare function secondsField(result: StepResult | undefined): string;
export declare function barResult(bar: {
  onWall: boolean;
  notWaited: boolean;
  applies: boolean;
  from?: number;
  met: boolean;
}): string;
export declare function notWaitedNote(
  step: string,
  variant: string,
  result: StepResult,
  mnCpus: number,
): string;
