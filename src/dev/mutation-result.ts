// One fault's line of reports/mutation.json: written by the mutation gate, read by the traceability gate.
export interface MutantResult {
  fault: string;
  requirement: string;
  /** Killed where a user would see it: a sign-in fault on a target the run did not start, any other embedded. */
  killed: boolean;
  /** Failing tests whose failure names the fault's requirement (the ones that count). */
  killedBy: string[];
  /** Every failing test, whatever it declares. */
  failedTests: string[];
  testsRun: number;
  error?: string;
  /**
   * A sign-in fault, run on a target the run did not start too: its verdict there, and whether the embedded
   * target alone killed it (then it is not counted: there every sign-in refusal is the server's).
   */
  remote?: { verdict: string; runError?: { kind: string; cause: string }; embeddedOnly: boolean };
}
