// What a worker attaches to a test for the reporter: the exchanges of a test that did not pass, redacted,
// each with its id (src/worker/suite/kept-exchanges.ts writes them, src/runner/report/test-exchanges.ts reads them).

/** The attachment that carries a test's exchanges (JSON: the result's exchanges, but for `test`). */
export const EXCHANGES_ATTACHMENT = 'exchanges.json';
