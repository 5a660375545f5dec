// A set of OAuth scopes as one key: sorted, without repeats, space-separated.
export function normaliseScopes(scopes: string | readonly string[]): string {
  const list = typeof scopes === 'string' ? scopes.split(/\s+/) : [...scopes];
  return [...new Set(list.filter(Boolean))].sort().join(' ');
}
