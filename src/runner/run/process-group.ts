// Runs a command in its own process group and takes the whole group down with it: SIGINT, SIGTERM and
// SIGHUP received by this process stop the group, and whatever is left of the group when the command
// exits (a worker that outlived its runner) is killed. Nothing the command started survives.
//
// Every one of them reaches the group as SIGINT: Playwright's runner stops gracefully on SIGINT (reporters
// still write, the global teardown runs) but dies at once on SIGTERM. A group that has not ended
// GRACE_MS after the first signal is killed.
import { type ChildProcess, spawn } from 'node:child_process';
import { constants } from 'node:os';

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** After a forwarded signal, how long the group may take to shut down before it is killed. */
const GRACE_MS = 20_000;

export interface GroupExit {
  /** The command's exit code; 128 + n when it (or this process) ended by signal n. */
  code: number;
  /** The signal this process received while the command ran, if any. */
  signal?: NodeJS.Signals;
}

const signalCode = (signal: NodeJS.Signals): number => 128 + (constants.signals[signal] ?? 0);

/** Signals a whole process group; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * While the command runs, a forwarded signal to this process reaches its group as SIGINT, and SIGKILL after
 * GRACE_MS; `stop` ends the forwarding and kills what is left of the group.
 */
function forwardSignalsToGroup(child: ChildProcess, beforeStop?: () => void) {
  let received: NodeJS.Signals | undefined;
  let killer: NodeJS.Timeout | undefined;
  const forward = (signal: NodeJS.Signals) => {
    received ??= signal;
    beforeStop?.();
    if (child.pid !== undefined) signalGroup(child.pid, 'SIGINT');
    killer ??= setTimeout(() => child.pid !== undefined && signalGroup(child.pid, 'SIGKILL'), GRACE_MS);
  };
  for (const signal of FORWARDED) process.on(signal, forward);
  const stop = () => {
    for (const signal of FORWARDED) process.off(signal, forward);
    clearTimeout(killer);
    // Whatever of the group outlived the command (its pipes would keep 'close' from firing).
    if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
  };
  return { stop, received: () => received };
}

export function runInProcessGroup(
  command: string,
  args: readonly string[],
  options: {
    stdout?: 'inherit' | 'pipe';
    env?: NodeJS.ProcessEnv;
    /** Called before the group is signalled (e.g. to leave a note for processes that miss the signal). */
    beforeStop?: () => void;
  } = {},
): Promise<GroupExit & { output: string }> {
  const stdout = options.stdout ?? 'inherit';
  const child = spawn(command, args, {
    detached: true,
    stdio: ['ignore', stdout, stdout],
    env: options.env ?? process.env,
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const group = forwardSignalsToGroup(child, options.beforeStop);
  child.on('exit', group.stop);
  return new Promise((resolve) => {
    const finish = (code: number) => {
      group.stop();
      const received = group.received();
      resolve({ code: received ? signalCode(received) : code, signal: received, output });
    };
    child.on('error', (error) => {
      output += String(error);
      finish(127);
    });
    child.on('close', (code, signal) => finish(code ?? (signal ? signalCode(signal) : 1)));
  });
}
