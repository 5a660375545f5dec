// What the console says while the run waits on a rate limit: the coordinator (server.ts) hands out
// every turn, so it knows every wait. A line names the client waited for ("partner A's client", never its id),
// the reset, whose account the wait is on (the target's 429, or the run pacing itself within the announced
// budget) and how many answers were 429. At most one line per client every PERIOD_MS, repeated while a long
// wait lasts, so that a stalled run does not look hung; a request no longer sent again is said once.
import type { SuiteConfig } from '../../config/suite-config.ts';
import { partnerCredential, USER_CREDENTIAL } from '../../http/api-client.ts';
import { budgetKey } from '../../http/pacer.ts';
import { describedLimit, type RateBudget, type Turn } from '../../http/rate-budget.ts';
import { redactText } from '../../http/redact.ts';

const PERIOD_MS = 15_000;
/** Shorter waits are the run's ordinary pacing, not worth a line. */
const SHOWN_WAIT_MS = 1_000;
const CHECK_EVERY_MS = 5_000;

interface Hold {
  until: number;
  turn: Extract<Turn, { kind: 'wait' }>;
  budget?: RateBudget;
}

/** The clients of a target's configuration by budget key: "the user OAuth client", "partner A's client". */
export function clientLabels(
  config: Pick<SuiteConfig, 'baseUrl' | 'partnerA' | 'partnerB'>,
  target: string,
): Map<string, string> {
  const of = target === '' ? '' : ` (target ${target})`;
  const labels = new Map([[budgetKey(config.baseUrl, USER_CREDENTIAL), `the user OAuth client${of}`]]);
  for (const [name, partner] of [
    ['A', config.partnerA],
    ['B', config.partnerB],
  ] as const)
    if (partner)
      labels.set(
        budgetKey(config.baseUrl, partnerCredential(partner.clientId)),
        `partner ${name}'s client${of}`,
      );
  return labels;
}

export class RateLimitConsole {
  private readonly labels = new Map<string, string>();
  private readonly holds = new Map<string, Hold>();
  private readonly lastLine = new Map<string, number>();
  private readonly said = new Set<string>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly print: (line: string) => void = console.log,
    private readonly now: () => number = Date.now,
  ) {
    this.timer = setInterval(() => this.stillWaiting(), CHECK_EVERY_MS);
    this.timer.unref();
  }

  name(labels: ReadonlyMap<string, string>): void {
    for (const [key, label] of labels) this.labels.set(key, label);
  }

  /** A turn the coordinator answered for `key`'s budget. */
  turned(key: string, turn: Turn, budget: RateBudget | undefined): void {
    if (turn.kind === 'refused')
      this.once(
        `${key} refused`,
        `${this.label(key)}: ${turn.reason}; its requests are not sent, their checks not verified`,
      );
    if (turn.kind !== 'wait') return;
    const hold = { until: this.now() + turn.waitMs, turn, budget };
    this.holds.set(key, hold);
    if (turn.waitMs >= SHOWN_WAIT_MS) this.show(key, hold);
  }

  /** A request of `key`'s client that the target kept refusing, no longer sent again. */
  stopped(key: string, request: string, stop: string): void {
    this.once(
      `${key} ${request}`,
      `${this.label(key)}: ${request} ${stop}; no longer sent again in this run`,
    );
  }

  close(): void {
    clearInterval(this.timer);
  }

  private stillWaiting(): void {
    for (const [key, hold] of this.holds)
      if (hold.until - this.now() >= SHOWN_WAIT_MS) this.show(key, hold);
      else if (hold.until <= this.now()) this.holds.delete(key);
  }

  private show(key: string, { until, turn, budget }: Hold): void {
    const now = this.now();
    if (now - (this.lastLine.get(key) ?? Number.NEGATIVE_INFINITY) < PERIOD_MS) return;
    this.lastLine.set(key, now);
    const limit = describedLimit(budget?.limit, budget?.windowSeconds);
    const seconds = Math.max(1, Math.round((until - now) / 1000));
    const why =
      turn.cause === '429'
        ? `the target answered 429 (${limit}), on its account`
        : `the budget the target announced (${limit}) is spent: the run paces itself`;
    this.write(
      `${this.label(key)} waits ${seconds} s for its rate limit's reset: ${why}; ${budget?.rejected ?? 0} answer(s) 429 in this run`,
    );
  }

  private once(id: string, line: string): void {
    if (this.said.has(id)) return;
    this.said.add(id);
    this.write(line);
  }

  private write(line: string): void {
    this.print(redactText(`rate limit: ${line}`));
  }

  private label(key: string): string {
    return (
      this.labels.get(key) ??
      (key.endsWith(` ${USER_CREDENTIAL}`)
        ? 'the user OAuth client'
        : / partner /.test(key)
          ? 'a partner client'
          : 'a client of the run')
    );
  }
}
