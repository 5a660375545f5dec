// Text as XML character data or an attribute value (the JUnit files): characters XML 1.0 cannot carry become
// U+FFFD, and the five markup characters their entities.
const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

export const xmlText = (text: string): string =>
  text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);

/** ` name="value"` for each entry, escaped. */
export const xmlAttributes = (values: Record<string, string | number>): string =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${xmlText(String(value))}"`)
    .join('');
