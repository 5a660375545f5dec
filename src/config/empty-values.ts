// A CONFORMANCE_* variable set to an empty value is refused by name, never read as unset: a pipeline's
// `CONFORMANCE_BASE_URL=$UNSET` would otherwise judge the embedded sandbox in place of the server it meant.
// The suite's commands unset a variable for the processes they start; they never set it empty.
import { ConfigError } from './config-error.ts';
import { variableNamed, variables } from './variables.ts';
import { shownDefault } from './variables-doc.ts';

/** Throws when a known variable's value is empty; `source` says where it was set, as a run error does. */
export function assertNotEmpty(name: string, value: string | undefined, source: string): void {
  const variable = variableNamed(name);
  if (value !== '' || !variable) return;
  const unset = shownDefault(variables[variable]).replace(/`/g, '');
  throw new ConfigError(
    name,
    `is set but empty: give it a value, or unset it${unset ? ` for its default (${unset})` : ''}; an empty value is refused, never read as unset`,
    source,
  );
}
