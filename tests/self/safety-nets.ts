// Bounds the self tests put on waits that end as soon as what they wait for happens: safety nets against a
// hang, never a measure of speed, so generous enough for a loaded machine (two CPU-bound processes beside
// the self tests on 2 cores). No self test asserts how long anything took.

/** A webhook the sandbox sends at once, waited for at most this long. */
export const DELIVERY_WAIT_MS = 30_000;
/** A child process's start (Prism's "listening"), waited for at most this long. */
export const START_WAIT_MS = 120_000;
/** A test that runs the whole suite, or several runs of it, in child processes: minutes alone. */
export const WHOLE_RUN_TIMEOUT_MS = 900_000;
