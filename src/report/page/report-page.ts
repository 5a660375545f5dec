// The page of a report: conformance.json and the requirement history are all it reads, so an old result
// renders again (`physiology-conformance render`).
import type { ConformanceReport } from '../model.ts';
import { readHistory } from '../requirement-history.ts';
import { renderPage } from './document.tsx';
import { pageView } from './from-report.ts';

export const reportPage = (report: ConformanceReport, historyFile: string): string =>
  renderPage(pageView(report, readHistory(historyFile)));
