// Real servers often serialise an absent optional value as JSON null ("end": null, "next_token": null).
// The suite reads such a property as absent: it is removed before any check sees the body, and its
// pointer is kept so the run can warn about it (SCH-NULL-FOR-ABSENT). A null for a required property
// becomes a missing required property, which the schema check still fails. Nulls inside arrays stay.

export interface WithoutNulls<T> {
  value: T;
  /** JSON pointers of the removed null-valued properties, e.g. `/records/3/end`. */
  nullPointers: string[];
}

const pointerToken = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

export function withoutNullProperties<T>(value: T): WithoutNulls<T> {
  const nullPointers: string[] = [];
  const strip = (node: unknown, pointer: string): unknown => {
    if (Array.isArray(node)) return node.map((item, index) => strip(item, `${pointer}/${index}`));
    if (node === null || typeof node !== 'object') return node;
    const kept: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) {
      if (child === null) nullPointers.push(`${pointer}/${pointerToken(key)}`);
      else kept[key] = strip(child, `${pointer}/${pointerToken(key)}`);
    }
    return kept;
  };
  return { value: strip(value, '') as T, nullPointers };
}

/** `/records/3/score` → `/records/*∕score`: one warning per field, not per record. */
export const fieldPattern = (pointer: string): string => pointer.replace(/\/\d+(?=\/|$)/g, '/*');
