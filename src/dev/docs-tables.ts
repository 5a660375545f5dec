// `npm run docs:tables`: writes the generated files again from their one owner: docs/variables.md's tables
// (src/config/variables.ts), the README's verdict table (src/runner/report/exit-statuses.ts), the result
// schema (src/result/schema.ts), the report page's script (its client.ts), the requirement IDs' type
// (specs/requirements.yaml). Self tests fail while they differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { withVariableTables } from '../config/variables-doc.ts';
import { requirementIdsText } from '../contract/requirement-ids-file.ts';
import { resultSchemaText } from '../result/schema-file.ts';
import { withVerdictTable } from '../runner/report/exit-statuses.ts';
import { clientScriptText } from '../runner/report/page/client-script.ts';
import { scriptArgs } from './script-args.ts';

scriptArgs(`Usage: npm run docs:tables

  Writes the generated tables again from their one owner: docs/variables.md, the README's verdict table,
  result-schema/conformance-result.schema.json, the report page's script and the requirement IDs' type
  (src/contract/requirement-ids.ts).
  --help  this text`);

const documents: [string, (text: string) => string][] = [
  ['docs/variables.md', withVariableTables],
  ['README.md', withVerdictTable],
  ['result-schema/conformance-result.schema.json', resultSchemaText],
  ['src/runner/report/page/client.generated.js', clientScriptText],
  ['src/contract/requirement-ids.ts', requirementIdsText],
];
for (const [name, generate] of documents) {
  const file = fileURLToPath(new URL(`../../${name}`, import.meta.url));
  const before = readFileSync(file, 'utf8');
  const after = generate(before);
  if (after !== before) writeFileSync(file, after);
  console.log(`${name}: ${after === before ? 'up to date' : 'generated tables written'}`);
}
