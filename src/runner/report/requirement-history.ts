// The requirement history: one line per run, its verdict and every requirement's status, kept beside the
// Allure history (which is per test and Allure's own) so that the page (reports/index.html) shows a trend per
// requirement. Every run appends its line; the file keeps the last HISTORY_KEPT runs.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { allureHistoryPath } from '../../run-state/reports-dir.ts';
import type { Status, Verdict } from './page/view-model.ts';

export interface HistoryEntry {
  startedAt: string;
  target: string;
  profile: string;
  environment: string;
  verdict: Verdict;
  /** SHA-256 of the spec and schemas, and of the requirement catalogue, the run judged by. */
  contract: { spec: string; catalogue: string };
  suiteVersion: string;
  /** Every requirement's status, by id. */
  statuses: Record<string, Status>;
}

/** How many runs the file keeps: a line is about 5 KB, so the file stays near a quarter of a megabyte. */
export const HISTORY_KEPT = 50;

/** The file's name: beside the Allure history (CONFORMANCE_ALLURE_HISTORY moves both, e.g. into a CI cache). */
export const REQUIREMENT_HISTORY = 'requirement-history.jsonl';

export const requirementHistoryPath = (): string => join(dirname(allureHistoryPath()), REQUIREMENT_HISTORY);

export interface History {
  entries: HistoryEntry[];
  /** Lines that are not an entry (a truncated write, an edit): left out of the trend, and said so. */
  unreadable: number;
}

const isEntry = (value: unknown): value is HistoryEntry => {
  const entry = value as Partial<HistoryEntry> | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.startedAt === 'string' &&
    typeof entry.verdict === 'string' &&
    typeof entry.statuses === 'object' &&
    entry.statuses !== null
  );
};

const parsed = (line: string): unknown => {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
};

/** The history of `file`, oldest first; none when the file does not exist. */
export function readHistory(file: string): History {
  if (!existsSync(file)) return { entries: [], unreadable: 0 };
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  const entries = lines.map(parsed).filter(isEntry);
  return { entries, unreadable: lines.length - entries.length };
}

/** Appends `entry`, keeping the last `kept` lines (an unreadable line too: the file is not ours to clean). */
export function appendHistory(file: string, entry: HistoryEntry, kept = HISTORY_KEPT): void {
  const lines = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
    : [];
  lines.push(JSON.stringify(entry));
  // Written whole, then renamed: a run stopped mid-write leaves the previous history.
  const partial = `${file}.partial`;
  writeFileSync(partial, `${lines.slice(-kept).join('\n')}\n`);
  renameSync(partial, file);
}
