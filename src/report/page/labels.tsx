// How the page names statuses, verdicts and trends: always a symbol and a word, never a colour alone.
import type { NotVerifiedKind, Status, TrendKind, Verdict } from './view-model.ts';

export const STATUS_ORDER: readonly Status[] = ['fail', 'warning', 'not-verified', 'pass', 'note', 'omitted'];

export const STATUS_LABEL: Record<Status, { symbol: string; word: string }> = {
  pass: { symbol: '✓', word: 'pass' },
  fail: { symbol: '✗', word: 'fail' },
  warning: { symbol: '!', word: 'warning' },
  'not-verified': { symbol: '?', word: 'not verified' },
  note: { symbol: 'i', word: 'note' },
  omitted: { symbol: '–', word: 'not in this run' },
};

export const VERDICT_LABEL: Record<Verdict, { symbol: string; word: string; meaning: string }> = {
  pass: { symbol: '✓', word: 'PASS', meaning: 'every MUST requirement of the profile passed' },
  fail: { symbol: '✗', word: 'FAIL', meaning: 'the server broke a stated rule' },
  incomplete: {
    symbol: '?',
    word: 'INCOMPLETE',
    meaning: 'nothing failed, but not every MUST requirement of the profile was verified',
  },
  error: { symbol: '!', word: 'ERROR', meaning: 'the run could not judge the target' },
};

export const TREND_LABEL: Record<TrendKind, string> = {
  steady: 'steady',
  regression: 'regression: passed before, fails now',
  fixed: 'fixed: failed before, passes now',
  data: 'flips between pass and not verified: some runs could not check it (data, configuration, a prerequisite); the target did not fail it',
  flaky: 'flaky: failed more than once after passing',
  changed: 'changed',
  new: 'first run',
};

export const KIND_LABEL: Record<NotVerifiedKind, string> = {
  data: 'data',
  configuration: 'configuration',
  blocked: 'blocked',
  'run-error': "the run's side",
  'not-run': 'not run',
};

export function StatusBadge({ status, suffix }: { status: Status; suffix?: string }) {
  const { symbol, word } = STATUS_LABEL[status];
  return (
    <span class={`status s-${status}`}>
      <span aria-hidden="true">{symbol}</span> {word}
      {suffix ? ` ${suffix}` : ''}
    </span>
  );
}
