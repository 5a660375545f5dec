// A worker's line to the run's coordinator (server.ts): JSON over loopback HTTP, on its own
// connection pool, neither counted nor recorded (it is the suite talking to itself, not to the target).
import { Agent, request } from 'node:http';
import type { ShownSource, TurnSource } from '../../http/pacer.ts';
import type { Turn } from '../../http/rate-budget.ts';
import type { ShownRate } from '../../http/rate-window.ts';
import { ROUTES, type Route } from '../../protocol/coordinator-routes.ts';

export type CoordinatorCall = (route: Route, body: unknown) => Promise<unknown>;

export function coordinatorCall(url: string): CoordinatorCall {
  const agent = new Agent({ keepAlive: true });
  return (route, body) =>
    new Promise((resolve, reject) => {
      const outgoing = request(`${url}${route}`, {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json' },
      });
      outgoing.on('error', reject);
      outgoing.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (response.statusCode !== 200) reject(new Error(`run coordinator ${route}: ${text}`));
          else resolve(JSON.parse(text) as unknown);
        });
      });
      outgoing.end(JSON.stringify(body));
    });
}

/** Turns from the coordinator's budgets. */
export const coordinatedTurns =
  (call: CoordinatorCall): TurnSource =>
  (credential, seen) =>
    call(ROUTES.turn, { credential, seen }) as Promise<Turn>;

/** What the coordinator's budget of a credential learned of its limit. */
export const coordinatedShown =
  (call: CoordinatorCall): ShownSource =>
  async (credential, seen) =>
    ((await call(ROUTES.shownRate, { credential, seen })) as { shown?: ShownRate }).shown;
