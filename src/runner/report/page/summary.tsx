// The page's top: the verdict and its cause, the run it judges, what changed since the last run, latency.
import { type ComponentChildren, Fragment } from 'preact';
import { BoxedTable } from './boxed-table.tsx';
import { STATUS_LABEL, STATUS_ORDER, VERDICT_LABEL } from './labels.tsx';
import type {
  ChangesView,
  KnownFailure,
  LatencyView,
  PageView,
  RunHeader,
  VerdictView,
} from './view-model.ts';

/** Capitalised, as a sentence starts. */
const sentence = (text: string) => `${text[0]?.toUpperCase() ?? ''}${text.slice(1)}.`;

export function VerdictSection({ verdict }: { verdict: VerdictView }) {
  const label = VERDICT_LABEL[verdict.verdict];
  return (
    <section id="verdict" aria-labelledby="verdict-heading">
      <div class={`verdict v-${verdict.verdict}`}>
        <h2 id="verdict-heading" class="word">
          <span aria-hidden="true">{label.symbol}</span> {label.word}
          {verdict.strict ? ' (strict mode: warnings fail)' : ''}
        </h2>
        <p id="verdict-cause">
          {verdict.cause ? `Why: ${verdict.cause}.` : sentence(verdict.basis ?? label.meaning)}
        </p>
        {verdict.beside && <p id="verdict-beside">{sentence(verdict.beside)}</p>}
        {verdict.details.length > 0 && (
          <ul class="tight">
            {verdict.details.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        )}
        <p class="counts">
          Requirements:{' '}
          {STATUS_ORDER.map((status) => `${verdict.counts[status]} ${STATUS_LABEL[status].word}`).join(', ')}.
          Tests: {verdict.tests.passed} passed, {verdict.tests.failed} failed, {verdict.tests.skipped}{' '}
          skipped.
        </p>
      </div>
    </section>
  );
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function RunSection({ header, redaction }: { header: RunHeader; redaction: string }) {
  const rows: [string, string][] = [
    ['Target', `${header.target} (${header.baseUrl})`],
    ['Environment', header.environment],
    ['Profile', header.profile],
    ['Selection', header.selection.length > 0 ? header.selection.join('; ') : 'the whole profile'],
    ['Suite version', header.suiteVersion],
    ['Contract', header.contract],
    ['fast-check seed', header.seed === undefined ? 'none' : `${header.seed} (CONFORMANCE_SEED)`],
    ['Digest', header.digest ?? 'none (only a certification run is digested)'],
    ['Started', header.startedAt],
    ['Duration', seconds(header.durationMs)],
    ['Requests sent', String(header.requestsSent)],
  ];
  return (
    <section id="run" aria-labelledby="run-heading">
      <h2 id="run-heading">The run</h2>
      <dl class="run">
        {rows.map(([name, value]) => [<dt key={`${name}-t`}>{name}</dt>, <dd key={`${name}-d`}>{value}</dd>])}
      </dl>
      <p id="redaction">Redacted: {redaction}</p>
    </section>
  );
}

/** Requirement ids, each a link to its first failure card where it has one, else to its row. */
function IdList({ ids, cardOf = {} }: { ids: readonly string[]; cardOf?: Record<string, string> }) {
  if (ids.length === 0) return <span class="muted">none</span>;
  return (
    <>
      {ids.map((id, i) => (
        <Fragment key={id}>
          {i > 0 && ', '}
          <a href={`#${cardOf[id] ?? id}`} class="req-id">
            {id}
          </a>
        </Fragment>
      ))}
    </>
  );
}

/** A known failure's link (a requirement's) or title, and its reason, owner, ticket and expiry. */
function Known({ known }: { known: KnownFailure }) {
  const said = [
    known.reason && `known: ${known.reason}`,
    known.owner && `owner ${known.owner}`,
    known.ticket && `ticket ${known.ticket}`,
    known.expires && `until ${known.expires}`,
  ].filter(Boolean);
  return (
    <>
      {/^[A-Z0-9]+(-[A-Z0-9]+)+$/.test(known.id) ? (
        <a href={`#${known.id}`} class="req-id">
          {known.id}
        </a>
      ) : (
        known.id
      )}
      {said.length > 0 && ` — ${said.join('; ')}`}
    </>
  );
}

/** Known failures, one an item. */
function KnownItems({ items }: { items: readonly KnownFailure[] }) {
  return (
    <ul class="tight">
      {items.map((known) => (
        <li key={known.id}>
          <Known known={known} />
        </li>
      ))}
    </ul>
  );
}

/** A list of known failures under its heading (nothing when it is empty). */
function KnownList({
  id,
  heading,
  items,
}: {
  id: string;
  heading: ComponentChildren;
  items: KnownFailure[];
}) {
  if (items.length === 0) return null;
  return (
    <>
      <p id={id}>{heading}</p>
      <KnownItems items={items} />
    </>
  );
}

/** The known failures the expectations file declares that covered a failure, and those past their expiry. */
function KnownFailures({ known }: { known: PageView['known'] }) {
  return (
    <>
      <KnownList
        id="known-failures"
        items={known.inForce}
        heading={
          <>
            <strong>Known failures</strong> (CONFORMANCE_EXPECTATIONS; they do not fail the run):
          </>
        }
      />
      <KnownList
        id="expired-known-failures"
        items={known.expired}
        heading={
          <>
            <strong>
              <span aria-hidden="true">! </span>Known failures past their expiry
            </strong>{' '}
            (their failures count again):
          </>
        }
      />
    </>
  );
}

/** The known failures that still fail, each with its reason, owner, ticket and expiry. */
function StillFailing({ items }: { items: ChangesView['stillFailing'] }) {
  return items.length === 0 ? <span class="muted">none</span> : <KnownItems items={items} />;
}

/** What changed against the baseline or the last run: the contract, then the requirements by how they moved. */
function Comparison({ changes, cardOf }: { changes: ChangesView; cardOf: Record<string, string> }) {
  return (
    <>
      <p>
        Compared with {changes.againstKind === 'baseline' ? 'the baseline' : 'the last run'}:{' '}
        {changes.against}.
      </p>
      {changes.contractChanged && (
        <p id="contract-changed">
          <strong>
            <span aria-hidden="true">! </span>Contract changed:
          </strong>{' '}
          {changes.contractChanged}
        </p>
      )}
      <ul>
        <li>
          <strong>New failures:</strong> <IdList ids={changes.newFailures} cardOf={cardOf} />
        </li>
        <li>
          <strong>Fixed:</strong> <IdList ids={changes.fixed} />
        </li>
        <li>
          <strong>Still failing:</strong> <StillFailing items={changes.stillFailing} />
        </li>
        <li>
          <strong>Newly not verified:</strong> <IdList ids={changes.newlyNotVerified} />
        </li>
        <li>
          <strong>Newly verified:</strong> <IdList ids={changes.newlyVerified} />
        </li>
      </ul>
    </>
  );
}

export function ChangesSection({
  changes,
  known,
  cardOf,
}: {
  changes?: ChangesView;
  known: PageView['known'];
  cardOf: Record<string, string>;
}) {
  return (
    <section id="changes" aria-labelledby="changes-heading">
      <h2 id="changes-heading">What changed</h2>
      {!changes ? (
        <p>
          Nothing to compare with: no baseline (CONFORMANCE_BASELINE) and no earlier run of this target and
          profile in the history.
        </p>
      ) : (
        <Comparison changes={changes} cardOf={cardOf} />
      )}
      <KnownFailures known={known} />
    </section>
  );
}

/** The latency table's figures, in column order: the view's field and its heading. */
const LATENCY_FIGURES = [
  ['count', 'Count'],
  ['p50', 'p50'],
  ['p95', 'p95'],
  ['max', 'max'],
] as const satisfies readonly (readonly [keyof LatencyView, string])[];

/** An operation's row: its count and percentiles, and its budget and p95 change where the table has them. */
function LatencyRow({ row, budgeted, compared }: { row: LatencyView; budgeted: boolean; compared: boolean }) {
  return (
    <tr>
      <th scope="row">{row.operationId}</th>
      {LATENCY_FIGURES.map(([key]) => (
        <td class="num" key={key}>
          {row[key]}
        </td>
      ))}
      {budgeted && (
        <td class="num">
          {row.budgetMs ?? ''}
          {row.overBudget ? ' ! over budget' : ''}
        </td>
      )}
      {compared && <td>{row.sinceBaseline ?? ''}</td>}
    </tr>
  );
}

function LatencyTable({ rows }: { rows: readonly LatencyView[] }) {
  const budgeted = rows.some((row) => row.budgetMs !== undefined);
  const compared = rows.some((row) => row.sinceBaseline !== undefined);
  return (
    <BoxedTable
      caption="The target's answer times this run recorded, in ms (nearest rank)"
      head={
        <tr>
          <th scope="col">Operation</th>
          {LATENCY_FIGURES.map(([key, heading]) => (
            <th scope="col" class="num" key={key}>
              {heading}
            </th>
          ))}
          {budgeted && (
            <th scope="col" class="num">
              Budget (p95)
            </th>
          )}
          {compared && <th scope="col">p95 since baseline</th>}
        </tr>
      }
    >
      {rows.map((row) => (
        <LatencyRow key={row.operationId} row={row} budgeted={budgeted} compared={compared} />
      ))}
    </BoxedTable>
  );
}

export function LatencySection({ rows }: { rows: readonly LatencyView[] }) {
  return (
    <section id="latency" aria-labelledby="latency-heading">
      <h2 id="latency-heading">Latency per operation</h2>
      {rows.length === 0 ? (
        <p>No timed answer of a contract operation was recorded.</p>
      ) : (
        <LatencyTable rows={rows} />
      )}
    </section>
  );
}
