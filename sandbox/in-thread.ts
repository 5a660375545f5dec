// startSandbox in a worker thread of this process (sandbox/thread.ts), shared by every instance started so:
// the run's global setup starts its embedded targets here, so that Playwright's runner thread loads the spec
// files and starts the workers meanwhile, and dispatches tests while the instances answer. The thread goes
// when its last instance closes, and never keeps the process alive. In a checkout it runs the TypeScript
// sources through tsx, as the command does.
import { Worker } from 'node:worker_threads';
import type { ThreadAnswer, ThreadRequest } from './thread.ts';

const fromSources = import.meta.url.endsWith('.ts');
const THREAD = new URL(fromSources ? './thread.ts' : './thread.js', import.meta.url);

interface Thread {
  worker: Worker;
  waiting: Map<number, (answer: ThreadAnswer) => void>;
  open: number;
}

let thread: Thread | undefined;
let lastId = 0;

/** The sources' thread registers tsx first (the process's loader is not the thread's); the build's is JS. */
function newWorker(): Worker {
  if (!fromSources) return new Worker(THREAD);
  const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
    .then(({ register }) => { register(); return import(${JSON.stringify(THREAD.href)}); })`;
  return new Worker(boot, { eval: true });
}

function startThread(): Thread {
  const worker = newWorker();
  worker.unref();
  const started: Thread = { worker, waiting: new Map(), open: 0 };
  worker.on('message', (answer: ThreadAnswer) => started.waiting.get(answer.id)?.(answer));
  const lost = (reason: string) => {
    if (thread === started) thread = undefined;
    const error = { name: 'Error', message: `the embedded sandbox's thread stopped: ${reason}` };
    for (const [id, answer] of started.waiting) answer({ id, error });
    started.waiting.clear();
    if (started.open > 0) console.error(error.message);
    started.open = 0;
  };
  worker.on('error', (error) => lost(error.stack ?? error.message));
  worker.on('exit', (code) => lost(`exit ${code}`));
  return started;
}

/** Sends one request to the thread and waits for its answer; an error answer is thrown as an Error. */
async function ask(to: Thread, request: ThreadRequest): Promise<ThreadAnswer> {
  const answer = await new Promise<ThreadAnswer>((resolve) => {
    to.waiting.set(request.id, resolve);
    to.worker.postMessage(request);
  });
  to.waiting.delete(request.id);
  if ('error' in answer) throw Object.assign(new Error(answer.error.message), answer.error);
  return answer;
}

export interface ThreadedSandbox {
  baseUrl: string;
  authUrl: string;
  close(): Promise<void>;
}

/** Builds a sandbox in the thread, listening (port 0: a free port). Unknown fault or variant names throw. */
export async function startSandboxInThread(
  input: Extract<ThreadRequest, { kind: 'start' }>['input'],
): Promise<ThreadedSandbox> {
  thread ??= startThread();
  const host = thread;
  const id = ++lastId;
  const started = await ask(host, { id, kind: 'start', input });
  if (!('baseUrl' in started)) throw new Error('the sandbox thread answered a start without its URLs');
  host.open += 1;
  return {
    baseUrl: started.baseUrl,
    authUrl: started.authUrl,
    close: async () => {
      await ask(host, { id, kind: 'close' });
      host.open -= 1;
      if (host.open === 0 && thread === host) {
        thread = undefined;
        await host.worker.terminate();
      }
    },
  };
}
