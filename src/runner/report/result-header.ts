// What every conformance result says of itself before its run's facts: the schema it follows, the suite
// that wrote it, the contract it judged against, what it redacted, and its (empty) extensions.
import { REDACTION } from '../../http/redact.ts';
import { RESULT_SCHEMA_ID, RESULT_SCHEMA_VERSION } from '../../result/identity.ts';
import { packageVersion } from '../../run-state/package.ts';
import { contractDigests } from './digest.ts';
import type { ConformanceReport } from './model.ts';

export const resultHeader = (): Pick<
  ConformanceReport,
  '$schema' | 'schemaVersion' | 'suite' | 'contract' | 'redaction' | 'extensions'
> => ({
  $schema: RESULT_SCHEMA_ID,
  schemaVersion: RESULT_SCHEMA_VERSION,
  suite: { name: 'physiology-conformance', version: packageVersion() },
  contract: contractDigests(),
  redaction: { marker: REDACTION.marker, fields: [...REDACTION.fields], headers: [...REDACTION.headers] },
  extensions: {},
});
