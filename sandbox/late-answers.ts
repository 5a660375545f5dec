// The variants whose answers leave late (sandbox/variants.ts): `long-tail`, a correct server with a long tail
// of slow answers, as a production service has (a cold cache, a slow query), and `every-answer-700ms`, a
// correct server that is slow throughout (a distant region, a loaded database). The instance counts the
// answers of the service (its operations under {base_url}; for the second, its sign-in too) and holds the
// n-th for its lateness: for the long tail a draw of its own per answer, from the instance's seed, so the same
// run always has the same late answers, whatever the clock says.
import { setTimeout } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from './context.ts';
import { createPrng, deriveSeed } from './prng.ts';

/** How often an answer is late, and by how much: about 1 in 300 by 12 s, and 1 in 40 by 2.5 s. */
export const LONG_TAIL = [
  { oneIn: 300, lateMs: 12_000 },
  { oneIn: 40, lateMs: 2_500 },
] as const;

/** Variant every-answer-700ms: how late every answer of the service leaves. */
export const EVERY_ANSWER_LATE_MS = 700;

/** How late the long-tail instance of `seed` sends its n-th answer (1-based), in ms (0: on time). */
export function lateness(seed: number, n: number): number {
  let draw = createPrng(deriveSeed(seed, `long-tail ${n}`)).next();
  for (const { oneIn, lateMs } of LONG_TAIL) {
    if (draw < 1 / oneIn) return lateMs;
    draw -= 1 / oneIn;
  }
  return 0;
}

/** Holds the n-th answer to a request `served` selects for `lateMs(n)`; on the root instance, before the routes. */
function holdAnswers(app: FastifyInstance, served: (url: string) => boolean, lateMs: (n: number) => number) {
  let answers = 0;
  app.addHook('onSend', async (request, _reply, payload) => {
    if (!served(request.url)) return payload;
    const ms = lateMs(++answers);
    if (ms > 0) await setTimeout(ms);
    return payload;
  });
}

/** Registers the late answers of the instance's variants, if any (`basePath`: {base_url}'s path). */
export function registerLateAnswers(app: FastifyInstance, ctx: SandboxContext, basePath: string): void {
  const ofService = (url: string) => url.startsWith(`${basePath}/`);
  if (ctx.variant('long-tail')) holdAnswers(app, ofService, (n) => lateness(ctx.options.seed, n));
  if (ctx.variant('every-answer-700ms'))
    holdAnswers(
      app,
      (url) => ofService(url) || url.startsWith('/oauth/'),
      () => EVERY_ANSWER_LATE_MS,
    );
}
