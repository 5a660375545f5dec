// What needs a person: a card per failure (the finding, the exchange, a curl to send it again, the replay of
// a property), and every requirement that was not verified with how to verify it.
import { KIND_LABEL } from './labels.tsx';
import { TestList } from './test-list.tsx';
import type { BodyView, FailureView, NotVerifiedView } from './view-model.ts';

const bytes = (n: number) => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KB`);

function Body({ body }: { body?: BodyView }) {
  if (!body) return null;
  return (
    <>
      <div class="muted">
        body, {bytes(body.bytes)}
        {body.cut ? `: cut, the first ${bytes(body.text.length)} shown` : ''}
      </div>
      <pre>{body.text}</pre>
    </>
  );
}

/** A card's heading: the message's first line, cut short (the whole message follows it then). */
const HEADLINE = 120;
function headline(message: string): string {
  const [first = ''] = message.split('\n');
  return first.length > HEADLINE ? `${first.slice(0, HEADLINE)}…` : first;
}

const headerLines = (headers: readonly [string, string][]) =>
  headers.map(([name, value]) => `${name}: ${value}`).join('\n');

/** A card's heading (the requirement and the message's first line), then the whole message where it was cut. */
function CardHeading({ failure }: { failure: FailureView }) {
  return (
    <>
      <h3 id={`${failure.anchor}-h`}>
        <span aria-hidden="true">✗ </span>
        <a href={`#${failure.requirement}`} class="req-id">
          {failure.requirement}
        </a>
        : {headline(failure.message)}
      </h3>
      {headline(failure.message) !== failure.message && <pre>{failure.message}</pre>}
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

/** The request of the failure's exchange, or, where the result keeps none, the request as the check gave it. */
function RequestShown({ request, evidence }: Pick<FailureView, 'request' | 'evidence'>) {
  return request ? (
    <>
      <h4>Request</h4>
      <pre>
        {[`${request.method} ${request.url}`, headerLines(request.headers)].filter(Boolean).join('\n')}
      </pre>
      <Body body={request.body} />
    </>
  ) : (
    evidence && (
      <>
        <h4>Request, as the check gave it</h4>
        <pre>{evidence}</pre>
        <p class="muted">
          The result keeps no exchange for this finding (a read shared between checks, or no request at all).
        </p>
      </>
    )
  );
}

function ResponseShown({ response }: { response: NonNullable<FailureView['response']> }) {
  return (
    <>
      <h4>Response</h4>
      <pre>{[`HTTP ${response.status}`, headerLines(response.headers)].filter(Boolean).join('\n')}</pre>
      {response.body ? <Body body={response.body} /> : <p class="muted">No body.</p>}
    </>
  );
}

/** The curl that sends the request again, with a copy button the page's script shows. */
function SendAgain({ anchor, curl }: { anchor: string; curl: NonNullable<FailureView['curl']> }) {
  return (
    <>
      <h4>
        Send it again{' '}
        <button type="button" class="copy" data-copy={`${anchor}-curl`} hidden>
          Copy curl
        </button>
      </h4>
      {curl.placeholders.length > 0 && (
        <p class="muted">
          Set {curl.placeholders.join(', ')} to your own credentials first: the run's are never written.
        </p>
      )}
      <pre id={`${anchor}-curl`}>{curl.command}</pre>
    </>
  );
}

function Card({ failure }: { failure: FailureView }) {
  const { response, curl, replay } = failure;
  return (
    <article class="card" id={failure.anchor} aria-labelledby={`${failure.anchor}-h`}>
      <CardHeading failure={failure} />
      {failure.fields && (
        <p>
          Offending field{failure.fields.length > 1 ? 's' : ''}: <code>{failure.fields.join(', ')}</code>
        </p>
      )}
      <TestsThatMet tests={failure.tests} />
      <RequestShown request={failure.request} evidence={failure.evidence} />
      {response && <ResponseShown response={response} />}
      {curl && <SendAgain anchor={failure.anchor} curl={curl} />}
      {replay && (
        <>
          <h4>Replay the property (fast-check seed {replay.seed})</h4>
          <pre>{replay.command}</pre>
        </>
      )}
      {failure.detail && (
        <>
          <h4>fast-check's report</h4>
          <pre>{failure.detail}</pre>
        </>
      )}
    </article>
  );
}

export function FailuresSection({ failures }: { failures: readonly FailureView[] }) {
  const tests = failures.reduce((sum, failure) => sum + failure.tests.length, 0);
  return (
    <section id="failures" aria-labelledby="failures-heading">
      <h2 id="failures-heading">Failures</h2>
      {failures.length === 0 ? (
        <p>None: no stated rule was broken.</p>
      ) : (
        <p>
          {failures.length} distinct failure(s), met by {tests} failed test(s); the same finding on the same
          request is one card, with the tests that met it.
        </p>
      )}
      {failures.map((failure) => (
        <Card key={failure.anchor} failure={failure} />
      ))}
    </section>
  );
}

type NotVerifiedReason = NotVerifiedView['reasons'][number];

/** Why a requirement was not verified, and how to verify it: fix its prerequisite first, or the remedy. */
function NotVerifiedReasonItem({ reason }: { reason: NotVerifiedReason }) {
  return (
    <li>
      <strong>{KIND_LABEL[reason.kind]}:</strong> {reason.message}
      <div>
        How to verify:{' '}
        {reason.prerequisite ? (
          <>
            fix{' '}
            <a href={`#${reason.prerequisite}`} class="req-id">
              {reason.prerequisite}
            </a>{' '}
            first
          </>
        ) : (
          reason.howToVerify
        )}
      </div>
      <div class="muted">{reason.test}</div>
    </li>
  );
}

function NotVerifiedRow({ item }: { item: NotVerifiedView }) {
  return (
    <tr id={`nv-${item.id}`}>
      <th scope="row">
        <a href={`#${item.id}`} class="req-id">
          {item.id}
        </a>
        <div class="section-name">{item.area}</div>
      </th>
      <td>{item.level}</td>
      <td>
        <ul class="tight">
          {item.reasons.map((reason) => (
            <NotVerifiedReasonItem key={`${reason.test}|${reason.message}`} reason={reason} />
          ))}
        </ul>
      </td>
    </tr>
  );
}

export function NotVerifiedSection({ items }: { items: readonly NotVerifiedView[] }) {
  return (
    <section id="not-verified" aria-labelledby="not-verified-heading">
      <h2 id="not-verified-heading">Not verified</h2>
      {items.length === 0 ? (
        <p>Every requirement the run reached was verified.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Requirement</th>
              <th scope="col">Level</th>
              <th scope="col">Why, and how to verify it</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <NotVerifiedRow key={item.id} item={item} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
