// The requirements by area: a summary table of the areas, the filters, and one table per area whose rows
// are anchored by requirement id and carry what the filters match (data-status, data-area, data-level).
import { Fragment } from 'preact';
import { UNCOUNTED } from '../../render/requirement-lines.ts';
import { BoxedTable } from './boxed-table.tsx';
import { STATUS_LABEL, STATUS_ORDER, StatusBadge, TREND_LABEL } from './labels.tsx';
import { TestList } from './test-list.tsx';
import type { AreaView, Level, RequirementView, TrendRun } from './view-model.ts';

const LEVELS: readonly Level[] = ['MUST', 'READING', 'UNSPECIFIED'];

export function AreasSummary({ areas }: { areas: readonly AreaView[] }) {
  return (
    <section id="areas" aria-labelledby="areas-heading">
      <h2 id="areas-heading">Areas</h2>
      <p class="muted">
        A requirement's area is the seed's section it is stated in (its first part, as the catalogue's section
        field gives it).
      </p>
      <BoxedTable
        head={
          <tr>
            <th scope="col">Area</th>
            {STATUS_ORDER.map((status) => (
              <th scope="col" class="num" key={status}>
                <span aria-hidden="true">{STATUS_LABEL[status].symbol}</span> {STATUS_LABEL[status].word}
              </th>
            ))}
          </tr>
        }
      >
        {areas.map((area) => (
          <tr key={area.name}>
            <th scope="row">
              <a href={`#${area.anchor}`}>{area.name}</a>
            </th>
            {STATUS_ORDER.map((status) => (
              <td class="num" key={status}>
                {area.counts[status]}
              </td>
            ))}
          </tr>
        ))}
      </BoxedTable>
    </section>
  );
}

/** A filter that picks one value of a field, or "every" one (the empty value). */
function SelectFilter({ label, name, values }: { label: string; name: string; values: readonly string[] }) {
  return (
    <label class="field">
      {label}
      <select name={name}>
        <option value="">every {name}</option>
        {values.map((value) => (
          <option value={value} key={value}>
            {value}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The filters: shown by the page's script (without it every requirement is listed). */
function Filters({ areas }: { areas: readonly AreaView[] }) {
  return (
    <form class="filters" id="filters" hidden aria-label="Filter the requirements">
      <fieldset>
        <legend>Status</legend>
        {STATUS_ORDER.map((status) => (
          <label key={status}>
            <input type="checkbox" name="status" value={status} /> <StatusBadge status={status} />{' '}
          </label>
        ))}
      </fieldset>
      <SelectFilter label="Area" name="area" values={areas.map((area) => area.name)} />
      <SelectFilter label="Level" name="level" values={LEVELS} />
      <label class="field">
        Text
        <input type="search" name="q" placeholder="id, sentence, test…" />
      </label>
      <button type="reset">Clear</button>
      <output id="filter-count" aria-live="polite" />
    </form>
  );
}

function Trend({ requirement, runs }: { requirement: RequirementView; runs: readonly TrendRun[] }) {
  const { statuses, kind } = requirement.trend;
  const words = statuses.map((status) => (status ? STATUS_LABEL[status].word : 'absent'));
  return (
    <>
      <span
        class="trend"
        role="img"
        aria-label={`last ${plural(statuses.length, 'run')}, oldest first: ${words.join(', ')}`}
      >
        {statuses.map((status, i) => (
          <span
            key={runs[i]?.startedAt ?? i}
            class={status ? `s-${status}` : 's-omitted'}
            title={`${runs[i]?.startedAt ?? ''}: ${words[i]}`}
          >
            {status ? STATUS_LABEL[status].symbol : ' '}
          </span>
        ))}
      </span>
      <span class={`trend-kind k-${kind}`}>{TREND_LABEL[kind].word}</span>
    </>
  );
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** A failed requirement's links to its failure cards. */
function CardLinks({ cards }: { cards: readonly string[] }) {
  if (cards.length === 0) return null;
  return (
    <div>
      {cards.map((card, i) => (
        <Fragment key={card}>
          {i > 0 && ' '}
          <a href={`#${card}`}>{cards.length === 1 ? 'its failure card ↑' : `card ${i + 1} ↑`}</a>
        </Fragment>
      ))}
    </div>
  );
}

function StatusCell({ requirement: r }: { requirement: RequirementView }) {
  const count =
    r.status === 'pass' || r.status === 'warning' ? `on ${plural(r.evidenceCount, 'observation')}` : '';
  const lines: [string, readonly string[]][] = [
    ['evidence', r.evidence],
    ['warnings', r.warnings],
    ['notes', r.notes],
  ];
  return (
    <td>
      <StatusBadge status={r.status} />
      {count && <div class="muted">{count}</div>}
      {r.deviation && <div>known deviation: {r.deviation}</div>}
      {r.uncounted ? (
        <div class="uncounted">{UNCOUNTED}</div>
      ) : (
        r.unobservable && <div class="muted">not observable: {r.unobservable}</div>
      )}
      <CardLinks cards={r.cards} />
      {r.status === 'not-verified' && (
        <div>
          <a href={`#nv-${r.id}`}>how to verify</a>
        </div>
      )}
      {lines.map(([name, list]) =>
        list.length === 0 ? null : (
          <details key={name} open={name === 'warnings'}>
            <summary>
              {name} ({list.length})
            </summary>
            <ul class="tight">
              {list.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </details>
        ),
      )}
    </td>
  );
}

function TestsCell({ tests }: { tests: RequirementView['tests'] }) {
  if (tests.length === 0) return <td class="muted">no test of this run</td>;
  const list = <TestList tests={tests} aside={(test) => test.outcome} />;
  return (
    <td>
      {tests.length <= 2 ? (
        list
      ) : (
        <details>
          <summary>{plural(tests.length, 'test')}</summary>
          {list}
        </details>
      )}
    </td>
  );
}

function RequirementRow({
  requirement: r,
  runs,
}: {
  requirement: RequirementView;
  runs: readonly TrendRun[];
}) {
  return (
    <tr id={r.id} data-status={r.status} data-area={r.area} data-level={r.level}>
      <th scope="row">
        <a href={`#${r.id}`} class="req-id">
          {r.id}
        </a>
        <div class="section-name">{r.section}</div>
        <div>{r.text}</div>
        {r.reading && (
          <p class="reading">
            <strong>The suite's reading:</strong> {r.reading}
          </p>
        )}
      </th>
      <td>{r.level}</td>
      <StatusCell requirement={r} />
      <td>
        <Trend requirement={r} runs={runs} />
      </td>
      <TestsCell tests={r.tests} />
    </tr>
  );
}

/** An area's requirements, a row each, under the area's name. */
function AreaTable({ area, runs }: { area: AreaView; runs: readonly TrendRun[] }) {
  return (
    <section class="area" data-area={area.name} aria-labelledby={area.anchor}>
      <h3 id={area.anchor}>{area.name}</h3>
      <BoxedTable columns={['Requirement', 'Level', 'Status', 'Trend', 'Tests']}>
        {area.requirements.map((requirement) => (
          <Fragment key={requirement.id}>
            <RequirementRow requirement={requirement} runs={runs} />
          </Fragment>
        ))}
      </BoxedTable>
    </section>
  );
}

export function RequirementsSection({
  areas,
  runs,
  historyNote,
}: {
  areas: readonly AreaView[];
  runs: readonly TrendRun[];
  historyNote?: string;
}) {
  return (
    <section id="requirements" aria-labelledby="requirements-heading">
      <h2 id="requirements-heading">Requirements by area</h2>
      <p class="muted">
        Each requirement: its id (a link to it), the seed's section and sentence, the suite's reading where
        the seed is loose; its status and what it rests on; its trend over the last{' '}
        {plural(runs.length, 'run')} of this target and profile (oldest first); the tests that verify it.
      </p>
      <p class="muted">
        Trends:{' '}
        {Object.values(TREND_LABEL)
          .map(({ word, meaning }) => `${word}: ${meaning}`)
          .join('; ')}
        .
      </p>
      {historyNote && <p class="muted">{historyNote}.</p>}
      <Filters areas={areas} />
      {areas.map((area) => (
        <AreaTable key={area.name} area={area} runs={runs} />
      ))}
    </section>
  );
}
