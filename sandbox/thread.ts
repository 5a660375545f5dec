// The thread the embedded sandboxes of a run live in (sandbox/in-thread.ts starts it): each message starts or
// closes one instance, and is answered by its id. Off the runner's own thread, building an instance (its
// routes' validators, its data) and serving it take nothing from Playwright loading the spec files.
import { parentPort } from 'node:worker_threads';
import { type RunningSandbox, startSandbox } from './app.ts';
import type { SandboxInput } from './options.ts';

/** What the thread is asked: its input is structured-cloned, so it holds no function (`now`) and no TLS. */
export type ThreadRequest =
  | { id: number; kind: 'start'; input: Omit<SandboxInput, 'now' | 'tls'> }
  | { id: number; kind: 'close' };

/** Its answer: a started instance's URLs, a closed one, or the error that stopped either, as plain data. */
export type ThreadAnswer =
  | { id: number; baseUrl: string; authUrl: string }
  | { id: number; closed: true }
  | { id: number; error: { name: string; message: string; code?: string } };

const running = new Map<number, RunningSandbox>();

async function answerTo(request: ThreadRequest): Promise<ThreadAnswer> {
  try {
    if (request.kind === 'close') {
      await running.get(request.id)?.close();
      running.delete(request.id);
      return { id: request.id, closed: true };
    }
    const sandbox = await startSandbox(request.input);
    running.set(request.id, sandbox);
    return { id: request.id, baseUrl: sandbox.baseUrl, authUrl: sandbox.authUrl };
  } catch (caught) {
    const error = caught instanceof Error ? caught : new Error(String(caught));
    const { code } = error as NodeJS.ErrnoException;
    return { id: request.id, error: { name: error.name, message: error.message, ...(code ? { code } : {}) } };
  }
}

parentPort?.on('message', async (request: ThreadRequest) => parentPort?.postMessage(await answerTo(request)));
