// The published form of the result schema: result-schema/conformance-result.schema.json in the package,
// written by `npm run docs:tables` from src/result/schema.ts (a self test fails while they differ).
import { fileURLToPath } from 'node:url';
import { resultSchemaDocument } from './schema.ts';

export const resultSchemaFile = fileURLToPath(
  new URL('../../result-schema/conformance-result.schema.json', import.meta.url),
);

/** The file's text: the schema document, two-space indented. */
export const resultSchemaText = (): string => `${JSON.stringify(resultSchemaDocument(), null, 2)}\n`;
