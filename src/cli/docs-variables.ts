// `npm run docs:variables`: writes the tables of variables in docs/variables.md again from
// src/config/variables.ts (tests/self/suite-config.spec.ts fails while they differ).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { withVariableTables } from '../config/variables-doc.ts';

const doc = fileURLToPath(new URL('../../docs/variables.md', import.meta.url));
const before = readFileSync(doc, 'utf8');
const after = withVariableTables(before);
if (after !== before) writeFileSync(doc, after);
console.log(
  after === before
    ? 'docs/variables.md: the tables of variables are up to date'
    : 'docs/variables.md: tables of variables written',
);
