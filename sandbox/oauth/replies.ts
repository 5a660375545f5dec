// What the OAuth routes share: form and query fields as strings, and HTML replies.
import type { FastifyReply } from 'fastify';

export type Fields = Record<string, string | undefined>;

/** The schema of a form body or query string: string values only. */
export const stringFields = { type: 'object', additionalProperties: { type: 'string' } } as const;

export function html(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(body);
}
