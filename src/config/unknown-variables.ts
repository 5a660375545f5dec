// A CONFORMANCE_* name that no row of ./variables.ts knows is a typo until shown otherwise: a run that
// ignored CONFORMANCE_PROFIL=smoke would write to production. The error suggests the nearest known name.
import { ConfigError } from './config-error.ts';
import { rows, variableNamed } from './variables.ts';

/** Edits (insertions, deletions, substitutions) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (const [i, charA] of [...a].entries()) {
    const current = [i + 1];
    for (const [j, charB] of [...b].entries())
      current.push(
        Math.min(
          (previous[j + 1] ?? 0) + 1,
          (current[j] ?? 0) + 1,
          (previous[j] ?? 0) + (charA === charB ? 0 : 1),
        ),
      );
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** 1 when `known` names another user or partner than `name` does. */
const sameParty = (name: string, known: string): number => {
  const party = (variable: string) => /_(A|B)(?=_|$)/.exec(variable)?.[1];
  return party(name) === party(known) ? 0 : 1;
};

/** Throws when `name` is a CONFORMANCE_* variable the suite does not know; `source` says where it was set. */
export function assertKnown(name: string, source: string): void {
  if (!name.startsWith('CONFORMANCE_') || variableNamed(name)) return;
  // Of names as near, one of the same user or partner (_A_, _B_) first.
  const [nearest] = rows()
    .map(([known]) => ({ known, distance: editDistance(name, known) + sameParty(name, known) / 2 }))
    .sort((a, b) => a.distance - b.distance);
  const hint =
    nearest && nearest.distance <= 4
      ? `did you mean ${nearest.known}?`
      : 'docs/variables.md lists every variable';
  throw new ConfigError(name, `(${source}) is not a variable of the suite: ${hint}`);
}
