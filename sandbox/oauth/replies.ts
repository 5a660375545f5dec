// What the OAuth routes share: form and query fields as strings, and HTML replies.
import type { FastifyReply } from 'fastify';

export type Fields = Record<string, string | undefined>;

/** The schema of a form body or query string: string values only. */
export const stringFields = { type: 'object', additionalProperties: { type: 'string' } } as const;

/** A form body whose names may repeat (checkboxes): a repeated name's values come as an array. */
export type RepeatedFields = Record<string, string | string[] | undefined>;

/** The schema of a form body whose names may repeat. */
export const repeatedFields = {
  type: 'object',
  additionalProperties: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
} as const;

/** Every value a form body gave `name`, in order. */
export const valuesOf = (fields: RepeatedFields, name: string): string[] => [fields[name] ?? []].flat();

/** The body read one value a name (the first): the fields of a form whose names do not repeat. */
export const firstValues = (fields: RepeatedFields): Fields =>
  Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]),
  );

export function html(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(body);
}
