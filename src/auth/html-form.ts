// Reads the first HTML form of a login or consent page: where it posts and which fields it carries.
export interface HtmlForm {
  action: string;
  method: string;
  fields: Record<string, string>;
  /** Field names by input type (text, email, password, hidden, submit...). */
  types: Record<string, string>;
}

const attribute = (tag: string, name: string): string | undefined =>
  new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i')
    .exec(tag)
    ?.slice(1)
    .find((value) => value !== undefined);

const NAMED_ENTITIES: Record<string, string> = { quot: '"', apos: "'", lt: '<', gt: '>', amp: '&' };

const decodeEntities = (value: string): string =>
  value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, code: string) => {
    if (code.startsWith('#x') || code.startsWith('#X'))
      return String.fromCodePoint(Number.parseInt(code.slice(2), 16));
    if (code.startsWith('#')) return String.fromCodePoint(Number(code.slice(1)));
    return NAMED_ENTITIES[code.toLowerCase()] ?? entity;
  });

export function parseForm(html: string, pageUrl: string): HtmlForm | undefined {
  const form = /<form\b[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return undefined;
  const openTag = /<form\b[^>]*>/i.exec(form[0])?.[0] ?? '';
  const fields: Record<string, string> = {};
  const types: Record<string, string> = {};
  for (const [tag] of form[1]?.matchAll(/<(?:input|button)\b[^>]*>/gi) ?? []) {
    const name = attribute(tag, 'name');
    if (!name) continue;
    const type = (
      attribute(tag, 'type') ?? (tag.toLowerCase().startsWith('<button') ? 'submit' : 'text')
    ).toLowerCase();
    if ((type === 'checkbox' || type === 'radio') && !/\schecked\b/i.test(tag)) continue;
    if (type === 'submit' && name in fields) continue; // the first submit button is the one pressed
    fields[name] = decodeEntities(attribute(tag, 'value') ?? '');
    types[name] = type;
  }
  return {
    action: new URL(decodeEntities(attribute(openTag, 'action') ?? pageUrl), pageUrl).toString(),
    method: (attribute(openTag, 'method') ?? 'GET').toUpperCase(),
    fields,
    types,
  };
}
