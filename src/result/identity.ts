// Which schema a result follows: its version, its `$id` (every result's `$schema`), and the published file
// (result-schema/conformance-result.schema.json, written from src/result/schema.ts), which readers validate
// against without loading the definition's builder.
import { join } from 'node:path';
import { packageRoot } from '../run-state/package.ts';

/** SemVer of the schema: a new optional field is a minor version, anything else a major one. */
export const RESULT_SCHEMA_VERSION = '1.2.0';
/** The schema's `$id`, and the `$schema` of every result: one per major version. */
export const RESULT_SCHEMA_ID = 'urn:physiology-conformance:conformance-result:1';

export const resultSchemaFile = join(packageRoot, 'result-schema', 'conformance-result.schema.json');
