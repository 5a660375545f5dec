// What needs a person: the cards of the failures, grouped by their cause. A card says what broke in its
// title (requirement, operation, field, what it held), the curl that sends its request again, the answer
// with the offending fields marked, the request, the tests that met it, a property's replay.
import { CauseText } from './causes.tsx';
import { Body, bodyFields } from './json-body.tsx';
import { TestList } from './test-list.tsx';
import type { CauseView, FailureView } from './view-model.ts';

const headerLines = (headers: readonly [string, string][]) =>
  headers.map(([name, value]) => `${name}: ${value}`).join('\n');

/** The offending fields, those alike but for their indexes once, a star for the index, with their count. */
function fieldsText(fields: readonly string[]): string {
  const kinds = new Map<string, string[]>();
  for (const field of fields) {
    const kind = field.replace(/\/\d+(?=\/|$)/g, '/*');
    kinds.set(kind, [...(kinds.get(kind) ?? []), field]);
  }
  return [...kinds]
    .map(([kind, alike]) => (alike.length > 1 ? `${kind} (${alike.length})` : alike[0]))
    .join(', ');
}

/** "GET /v2/cycle/{id} · /score/strain 24.94 > 21 (and 7 more)". */
function titleOf({ title }: FailureView): string {
  const more = title.violations > 1 ? ` (and ${title.violations - 1} more)` : '';
  return [title.operation, `${title.field ? `${title.field} ` : ''}${title.what}${more}`]
    .filter(Boolean)
    .join(' · ');
}

/** A card's title (what broke), its links back (the cause, the requirement's row), and its whole message. */
function CardHeading({ failure }: { failure: FailureView }) {
  return (
    <>
      <h4 id={`${failure.anchor}-h`}>
        <span aria-hidden="true">✗ </span>
        <a href={`#${failure.requirement}`} class="req-id">
          {failure.requirement}
        </a>
        {' · '}
        {titleOf(failure)}
      </h4>
      <p class="card-links muted">
        {failure.cause && <a href={`#${failure.cause}`}>↑ its cause</a>}{' '}
        <a href={`#${failure.requirement}`}>↑ {failure.requirement} in the requirements</a>
      </p>
      <pre class="message">{failure.message}</pre>
    </>
  );
}

/** The test that met the failure, or the list of them (open while it is short). */
function TestsThatMet({ tests }: { tests: FailureView['tests'] }) {
  const [first] = tests;
  return tests.length === 1 && first ? (
    <p>
      Test: {first.title} <span class="muted">({first.file})</span>
    </p>
  ) : (
    <details open={tests.length <= 5}>
      <summary>Met by {tests.length} tests</summary>
      <TestList tests={tests} aside={(test) => test.file} />
    </details>
  );
}

/** The request of the failure's exchange (its headers folded), or the request as the check gave it. */
function RequestShown({ request, evidence }: Pick<FailureView, 'request' | 'evidence'>) {
  return request ? (
    <>
      <h5>Request</h5>
      <pre>{`${request.method} ${request.url}`}</pre>
      {request.headers.length > 0 && (
        <details>
          <summary>its {request.headers.length} headers</summary>
          <pre>{headerLines(request.headers)}</pre>
        </details>
      )}
      <Body body={request.body} />
    </>
  ) : (
    evidence && (
      <>
        <h5>Request, as the check gave it</h5>
        <pre>{evidence}</pre>
        <p class="muted">
          The result keeps no exchange for this finding (a read shared between checks, or no request at all).
        </p>
      </>
    )
  );
}

function ResponseShown({ failure }: { failure: FailureView }) {
  const { response } = failure;
  if (!response) return null;
  return (
    <>
      <h5>Response: HTTP {response.status}</h5>
      {response.headers.length > 0 && (
        <details>
          <summary>its {response.headers.length} headers</summary>
          <pre>{headerLines(response.headers)}</pre>
        </details>
      )}
      {response.body ? (
        <Body body={response.body} fields={bodyFields(failure.fields)} />
      ) : (
        <p class="muted">No body.</p>
      )}
    </>
  );
}

/** The curl that sends the request again, what to set first, and a copy button the page's script shows. */
function SendAgain({ anchor, curl }: { anchor: string; curl: NonNullable<FailureView['curl']> }) {
  return (
    <>
      <h5>
        Send it again{' '}
        <button type="button" class="copy" data-copy={`${anchor}-curl`} hidden>
          Copy curl
        </button>
      </h5>
      {curl.settings && (
        <p class="muted">
          <code>{curl.settings[0]?.toUpperCase() + curl.settings.slice(1)}</code>: the run's credentials are
          never written.
        </p>
      )}
      <pre id={`${anchor}-curl`}>{curl.command}</pre>
    </>
  );
}

function Card({ failure }: { failure: FailureView }) {
  const { curl, replay } = failure;
  return (
    <article class="card" id={failure.anchor} aria-labelledby={`${failure.anchor}-h`}>
      <CardHeading failure={failure} />
      {failure.fields && (
        <p>
          Offending field{failure.fields.length > 1 ? 's' : ''}: <code>{fieldsText(failure.fields)}</code>
        </p>
      )}
      {curl && <SendAgain anchor={failure.anchor} curl={curl} />}
      <ResponseShown failure={failure} />
      <RequestShown request={failure.request} evidence={failure.evidence} />
      <TestsThatMet tests={failure.tests} />
      {replay && (
        <>
          <h5>Replay the property (fast-check seed {replay.seed})</h5>
          <pre>{replay.command}</pre>
        </>
      )}
      {failure.detail && (
        <>
          <h5>fast-check's report</h5>
          <pre>{failure.detail}</pre>
        </>
      )}
    </article>
  );
}

/** A cause's cards under its line. */
function CauseGroup({ cause, cards }: { cause: CauseView; cards: readonly FailureView[] }) {
  return (
    <section class="cause-group" id={`group-${cause.id}`} aria-labelledby={`group-${cause.id}-h`}>
      <h3 id={`group-${cause.id}-h`}>
        <CauseText cause={cause} />
      </h3>
      {cards.map((failure) => (
        <Card key={failure.anchor} failure={failure} />
      ))}
    </section>
  );
}

export function FailuresSection({
  failures,
  causes,
}: {
  failures: readonly FailureView[];
  causes: readonly CauseView[];
}) {
  const tests = failures.reduce((sum, failure) => sum + failure.tests.length, 0);
  const uncaused = failures.filter((failure) => failure.cause === undefined);
  return (
    <section id="failures" aria-labelledby="failures-heading">
      <h2 id="failures-heading">Failures</h2>
      {failures.length === 0 ? (
        <p>None: no stated rule was broken.</p>
      ) : (
        <p>
          {failures.length} distinct failure(s) of {causes.length} cause(s), met by {tests} failed test(s);
          the same finding on the same request is one card, with the tests that met it.
        </p>
      )}
      {causes.map((cause) => (
        <CauseGroup key={cause.id} cause={cause} cards={failures.filter((card) => card.cause === cause.id)} />
      ))}
      {uncaused.map((failure) => (
        <Card key={failure.anchor} failure={failure} />
      ))}
    </section>
  );
}
