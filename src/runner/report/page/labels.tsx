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
  pass: { symbol: '✓', word: 'PASS', meaning: 'every verifiable MUST requirement of the profile passed' },
  fail: { symbol: '✗', word: 'FAIL', meaning: 'the server broke a stated rule' },
  incomplete: {
    symbol: '?',
    word: 'INCOMPLETE',
    meaning: 'nothing failed, but not every verifiable MUST requirement of the profile was verified',
  },
  error: { symbol: '!', word: 'ERROR', meaning: 'the run could not judge the target' },
};

/** A trend's kind: its word in a requirement's row, and what it means (the legend above the tables). */
export const TREND_LABEL: Record<TrendKind, { word: string; meaning: string }> = {
  regression: { word: 'regression', meaning: 'verified before, fails now' },
  flaky: { word: 'flaky', meaning: 'failed more than once after passing' },
  fixed: { word: 'fixed', meaning: 'failed before, passes now' },
  data: {
    word: 'pass ↔ not verified',
    meaning:
      'some runs could not check it (the data, the configuration, a prerequisite); the target did not fail it',
  },
  changed: { word: 'changed', meaning: 'another change of status' },
  steady: { word: 'steady', meaning: 'the same status in every run that ran it' },
  new: { word: 'first run', meaning: 'no earlier run of this target and profile' },
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
