// reports/index.html: one self-contained page of a run, rendered from its view (view-model.ts). It loads
// nothing: a Content-Security-Policy in the page allows its own inline style and script by their hashes
// only, so the page makes no request, opened from disk or from a CI artifact.
import { renderToString } from 'preact-render-to-string';
import { pageAssets } from './assets.ts';
import { CausesSection } from './causes.tsx';
import { FailuresSection } from './failures.tsx';
import { VERDICT_LABEL } from './labels.tsx';
import { NotVerifiedSection } from './not-verified.tsx';
import { AreasSummary, RequirementsSection } from './requirements.tsx';
import { ChangesSection, LatencySection, RunSection, seconds, VerdictSection } from './summary.tsx';
import type { PageView } from './view-model.ts';

const CONTENTS: [string, string][] = [
  ['verdict', 'Verdict'],
  ['causes', 'What broke'],
  ['changes', 'What changed'],
  ['failures', 'Failures'],
  ['not-verified', 'Not verified'],
  ['areas', 'Areas'],
  ['requirements', 'Requirements by area'],
  ['latency', 'Latency'],
  ['run', 'The run'],
];

/** The page's heading: what it reports on, the run's identity (first on a printed page 1), the contents. */
function PageHeader({ header, causes }: { header: PageView['header']; causes: boolean }) {
  return (
    <header class="page">
      <h1>Conformance report — Physiology Data and Partner Lab Service</h1>
      <p class="identity muted">
        {header.target} <span class="url">{header.baseUrl}</span> ({header.environment}), profile{' '}
        {header.profile}
        {header.selection.length > 0 ? ` narrowed (${header.selection.join('; ')})` : ''}; started{' '}
        {header.startedAt}, {seconds(header.durationMs)}, {header.requestsSent} requests;{' '}
        {header.suiteVersion}
        {header.digest ? `; digest ${header.digest.slice(0, 16)}…` : ''}
      </p>
      <nav class="contents" aria-label="Contents">
        <ul>
          {CONTENTS.filter(([id]) => causes || id !== 'causes').map(([id, name]) => (
            <li key={id}>
              <a href={`#${id}`}>{name}</a>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}

function Page({ view }: { view: PageView }) {
  const { style, script } = pageAssets();
  const csp = [
    "default-src 'none'",
    `style-src ${style.hash}`,
    `script-src ${script.hash}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta http-equiv="Content-Security-Policy" content={csp} />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>
          Conformance {VERDICT_LABEL[view.verdict.verdict].word}: {view.header.target} ({view.header.profile},{' '}
          {view.header.startedAt})
        </title>
        {/* Our own stylesheet, not data: inlined as it is, allowed by its hash. */}
        <style dangerouslySetInnerHTML={{ __html: style.text }} />
      </head>
      <body>
        <PageHeader header={view.header} causes={view.causes.length > 0} />
        <main>
          <VerdictSection verdict={view.verdict} />
          <CausesSection causes={view.causes} />
          <ChangesSection changes={view.changes} known={view.known} cardOf={view.cardOf} />
          <FailuresSection failures={view.failures} causes={view.causes} />
          <NotVerifiedSection items={view.notVerified} />
          <AreasSummary areas={view.areas} />
          <RequirementsSection areas={view.areas} runs={view.trendRuns} historyNote={view.historyNote} />
          <LatencySection rows={view.latency} />
          <RunSection header={view.header} redaction={view.redaction} />
        </main>
        <script dangerouslySetInnerHTML={{ __html: script.text }} />
      </body>
    </html>
  );
}

export const renderPage = (view: PageView): string =>
  `<!doctype html>\n${renderToString(<Page view={view} />)}\n`;
