// Every requirement that was not verified, never hidden: each reason once, with the checks that gave it and
// how to verify it (what to set, the prerequisite to fix first); one this data cannot show marked so.
import { UNCOUNTED } from '../../render/requirement-lines.ts';
import { BoxedTable } from './boxed-table.tsx';
import { KIND_LABEL } from './labels.tsx';
import { TestList } from './test-list.tsx';
import type { NotVerifiedView } from './view-model.ts';

type NotVerifiedReason = NotVerifiedView['reasons'][number];

/** A reason, how to verify it (fix its prerequisite first, the remedy, what to set), and its checks. */
function NotVerifiedReasonItem({ reason }: { reason: NotVerifiedReason }) {
  const [only] = reason.tests;
  return (
    <li>
      <strong>{KIND_LABEL[reason.kind]}:</strong>{' '}
      {reason.tests.length > 1 && <>{reason.tests.length} checks: </>}
      {reason.message}
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
      {reason.tests.length === 1 && only ? (
        <div class="muted">{only}</div>
      ) : (
        <details>
          <summary class="muted">the {reason.tests.length} checks</summary>
          <TestList tests={reason.tests.map((title) => ({ title }))} />
        </details>
      )}
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
        {item.uncounted && <div class="uncounted">{UNCOUNTED}</div>}
      </th>
      <td>{item.level}</td>
      <td>
        <ul class="tight">
          {item.reasons.map((reason) => (
            <NotVerifiedReasonItem key={`${reason.kind}|${reason.message}`} reason={reason} />
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
        <BoxedTable columns={['Requirement', 'Level', 'Why, and how to verify it']}>
          {items.map((item) => (
            <NotVerifiedRow key={item.id} item={item} />
          ))}
        </BoxedTable>
      )}
    </section>
  );
}
