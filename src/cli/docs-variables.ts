// `npm run docs:variables`: writes the README's tables of variables again from src/config/variables.ts
// (tests/self/suite-config.spec.ts fails while they differ).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { withVariableTables } from '../config/variables-doc.ts';

const readme = fileURLToPath(new URL('../../README.md', import.meta.url));
const before = readFileSync(readme, 'utf8');
const after = withVariableTables(before);
if (after !== before) writeFileSync(readme, after);
console.log(
  after === before
    ? 'README.md: the tables of variables are up to date'
    : 'README.md: tables of variables written',
);
