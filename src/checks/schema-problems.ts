// A served body against its schema, as data: each violation attributed to the requirement its rule states
// (the schemas' x-requirement annotations) with the offending field, and each unknown property, which the
// contract allows, as a note of the requirement stated where it stands.
import { attributed, requirementAt } from '../contract/rule-requirements.ts';
import { formatNote, formatViolation, validate } from '../contract/validators.ts';
import { bodyField } from '../http/exchange.ts';

/** A violation of a rule of the schema: whose requirement, what (`where` first), and the field it breaks. */
export interface SchemaProblem {
  requirement: string;
  text: string;
  field: string;
}

/** The violations of `body` (served as `where`) of `schema`, and its unknown properties, by requirement. */
export function schemaProblems(schema: string, body: unknown, where: string) {
  const { errors, notes } = validate(schema, body);
  const problems: SchemaProblem[] = errors.map((violation) => ({
    requirement: attributed(violation).requirement,
    text: `${where}: ${formatViolation(violation)}`,
    field: bodyField(violation.pointer),
  }));
  // A page's records are alike: an unknown property is noted once for all of them.
  const unknown = notes.map((note) => ({
    requirement: requirementAt(schema, note.pointer),
    text: formatNote({ ...note, pointer: note.pointer.replace(/^\/records\/\d+/, '/records/*') }),
  }));
  return { problems, unknown };
}
