// What broke, directly under a FAIL's verdict: one line per cause (its field or status, what the answer held,
// the operations, the requirements it fails, each a link to its card), with a link to its first card and
// that card's curl to copy.
import { Fragment } from 'preact';
import type { CauseView } from './view-model.ts';

/** A cause's subject and what it held: "`/score/strain` 24.94 > 21 on GET /v2/cycle/{id}". */
export function CauseText({ cause }: { cause: CauseView }) {
  return (
    <>
      {cause.field && <code class="field">{cause.field}</code>} <strong>{cause.what}</strong>
      {cause.operations && <> on {cause.operations}</>}
    </>
  );
}

/** The requirements a cause fails, each a link to its first card of this cause. */
function CauseRequirements({ cause }: { cause: CauseView }) {
  return (
    <>
      {cause.requirements.map(({ id, card }, i) => (
        <Fragment key={id}>
          {i > 0 && ', '}
          <a href={`#${card ?? id}`} class="req-id">
            {id}
          </a>
        </Fragment>
      ))}
    </>
  );
}

function CauseLine({ cause, index }: { cause: CauseView; index: number }) {
  const [card] = cause.cards;
  return (
    <li id={cause.id} class="cause">
      <span class="cause-n">{index + 1}.</span> <CauseText cause={cause} />:{' '}
      <CauseRequirements cause={cause} />
      {cause.known && <span class="muted"> (known failure: does not fail the run)</span>}
      <span class="cause-actions">
        {card && (
          <a href={`#group-${cause.id}`} class="to-card">
            {cause.cards.length === 1 ? 'its card' : `its ${cause.cards.length} cards`} ↓
          </a>
        )}
        {cause.curlCard && (
          <button type="button" class="copy" data-copy={`${cause.curlCard}-curl`} hidden>
            Copy curl
          </button>
        )}
      </span>
    </li>
  );
}

export function CausesSection({ causes }: { causes: readonly CauseView[] }) {
  if (causes.length === 0) return null;
  return (
    <section id="causes" aria-labelledby="causes-heading">
      <h2 id="causes-heading">
        What broke: {causes.length} cause{causes.length === 1 ? '' : 's'}
      </h2>
      <p class="muted wide-only">
        One line per cause: a field or a status, the operations it was seen on, the requirements it fails
        (each a link to its card), and the curl of its first card to copy.
      </p>
      <ul class="causes">
        {causes.map((cause, index) => (
          <CauseLine key={cause.id} cause={cause} index={index} />
        ))}
      </ul>
    </section>
  );
}
