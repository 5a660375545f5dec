// The `long-tail` variant (sandbox/variants.ts): a correct server with a long tail of slow answers, as a
// production service has (a cold cache, a slow query). The instance counts the answers of the service's
// operations (under {base_url}) and holds the n-th for lateness(seed, n): a draw of its own per answer, from
// the instance's seed, so the same run always has the same late answers, whatever the clock says.
import { setTimeout } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from './context.ts';
import { createPrng, deriveSeed } from './prng.ts';

/** How often an answer is late, and by how much: about 1 in 300 by 12 s, and 1 in 40 by 2.5 s. */
export const LONG_TAIL = [
  { oneIn: 300, lateMs: 12_000 },
  { oneIn: 40, lateMs: 2_500 },
] as const;

/** How late the instance of `seed` sends its n-th answer (1-based), in ms (0: on time). */
export function lateness(seed: number, n: number): number {
  let draw = createPrng(deriveSeed(seed, `long-tail ${n}`)).next();
  for (const { oneIn, lateMs } of LONG_TAIL) {
    if (draw < 1 / oneIn) return lateMs;
    draw -= 1 / oneIn;
  }
  return 0;
}

/** Holds each answer under `basePath` for its lateness; call it on the root instance before the routes. */
export function registerLongTail(app: FastifyInstance, ctx: SandboxContext, basePath: string): void {
  let answers = 0;
  app.addHook('onSend', async (request, _reply, payload) => {
    if (!request.url.startsWith(`${basePath}/`)) return payload;
    const lateMs = lateness(ctx.options.seed, ++answers);
    if (lateMs > 0) await setTimeout(lateMs);
    return payload;
  });
}
