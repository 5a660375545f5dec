// One fault's line of reports/mutation.json: written by the mutation gate, read by the traceability gate.
export interface MutantResult {
  fault: string;
  requirement: string;
  killed: boolean;
  /** Failing tests whose failure names the fault's requirement (the ones that count). */
  killedBy: string[];
  /** Every failing test, whatever it declares. */
  failedTests: string[];
  testsRun: number;
  error?: string;
}
