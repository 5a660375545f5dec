import { expect, test } from '@playwright/test';
import { OPERATION_IDS } from '../../src/contract/operation-model.ts';
import { requirements } from '../../src/contract/requirements.ts';
import { contractText, missingContract } from '../../src/dev/contract-document.ts';

const operationIds: readonly string[] = OPERATION_IDS;

/** The contract document, or the running test skipped, saying why (src/dev/contract-document.ts). */
function seedText(): string {
  const missing = missingContract();
  test.skip(missing !== undefined, missing);
  return contractText() ?? '';
}

test('requirement IDs are unique and well-formed', () => {
  const ids = requirements.map((requirement) => requirement.id);
  expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  expect(ids.filter((id) => !/^[A-Z0-9]+(-[A-Z0-9]+)+$/.test(id))).toEqual([]);
});

test('every requirement has a level, a seed section, text and known operations', () => {
  for (const requirement of requirements) {
    expect(['MUST', 'READING', 'UNSPECIFIED'], requirement.id).toContain(requirement.level);
    // A reading is what a warning names: every READING entry states one.
    if (requirement.level === 'READING') expect(requirement.reading, requirement.id).toBeTruthy();
    expect(requirement.text.length, requirement.id).toBeGreaterThan(10);
    expect(requirement.section.length, requirement.id).toBeGreaterThan(3);
    expect(
      requirement.operations.filter((id) => !operationIds.includes(id)),
      requirement.id,
    ).toEqual([]);
    if (!requirement.verifiable) expect(requirement.reason, requirement.id).toBeTruthy();
  }
});

test('every quotation in the catalogue is in the seed, word for word', () => {
  const seed = seedText();
  // A failure rests on a sentence of the seed (README): what the catalogue quotes must be in it. An
  // ellipsis (…) leaves words out; the table pipes and punctuation at a fragment's ends are not compared.
  const misquoted = requirements.flatMap((requirement) =>
    [requirement.text, requirement.derived, requirement.reading].flatMap((field) =>
      [...(field ?? '').matchAll(/"([^"]{8,})"/g)].flatMap(([, quoted]) =>
        (quoted ?? '')
          .split('…')
          .map((fragment) => fragment.trim().replace(/^[|,; ]+|[|,; ]+$/g, ''))
          .filter((fragment) => fragment !== '' && !seed.includes(fragment))
          .map((fragment) => `${requirement.id}: "${fragment}"`),
      ),
    ),
  );
  expect(misquoted).toEqual([]);
});

test('every seed section has entries', () => {
  const seedSections = [...seedText().matchAll(/^## (.+)$/gm)].map((match) => match[1]?.trim() ?? '');
  expect(seedSections.length).toBe(9);
  const missing = seedSections.filter((section) => !requirements.some((r) => r.section.includes(section)));
  expect(missing).toEqual([]);
});

test('every operation is named by at least one requirement', () => {
  const named = new Set(requirements.flatMap((requirement) => requirement.operations));
  expect(operationIds.filter((id) => !named.has(id))).toEqual([]);
});

test('every "not shown" statement of the seed is recorded as UNSPECIFIED', () => {
  const notShown = seedText()
    .split('\n')
    .filter((line) => /not shown/.test(line)).length;
  expect(
    requirements.filter((requirement) => requirement.level === 'UNSPECIFIED').length,
  ).toBeGreaterThanOrEqual(notShown);
});
