// The operation-level oracles an answer of a read sent twice is judged by where no check judged it: the sending
// the check went on without (src/worker/session/slow-request-watch.ts). Each is a small named function giving its
// typed problem: no server error, the status listed for the operation with this token, a JSON body, the
// schema of the operation's response for that status, the status of the copy the check used. The first
// oracle an answer breaks charges it, once.
import type { Operation } from '../../contract/operation-model.ts';
import { appliesTo, jsonBodyRequirement, successRequirement } from '../../contract/requirements.ts';
import { attributed } from '../../contract/rule-requirements.ts';
import { formatViolation, validate } from '../../contract/validators.ts';
import { isJsonContentType } from '../../http/content-type.ts';
import { BODY, bodyField, bodyOf, headerField, STATUS } from '../../http/exchange.ts';
import type { TransportResponse } from '../../http/transport.ts';

export interface SendingContext {
  op: Operation;
  /** The request carried a token the suite made up (src/http/made-up-tokens.ts). */
  madeUpToken: boolean;
  /** The status of the copy the check went on with (undefined: it went on with none). */
  usedStatus?: number;
}

/** What an answer broke: the requirement it fails, in words, and the offending field (a JSON pointer). */
export interface OracleProblem {
  requirement: string;
  message: string;
  field: string;
}

export type Oracle = (answer: TransportResponse, context: SendingContext) => OracleProblem | undefined;

/** The requirements that state the refusal of a never-issued or malformed token, user's or partner's. */
const INVALID_TOKEN_RULES = ['AUTH-INVALID-TOKEN', 'PAUTH-INVALID-TOKEN'];

/** The rule a made-up token's answer is judged by; undefined where the token was no made-up one or none is stated. */
function tokenRule({ op, madeUpToken }: SendingContext): string | undefined {
  const declared = op.security.kind === 'user' || op.security.kind === 'partner';
  return madeUpToken && declared ? INVALID_TOKEN_RULES.find((id) => appliesTo(id, op)) : undefined;
}

const schemaOf = (op: Operation, status: number): string | null => op.responses.get(status)?.schema ?? null;

/** Never a 5xx: a server error fails the operation, whatever it was asked. */
export const noServerError: Oracle = ({ status }, { op }) =>
  status >= 500
    ? { requirement: successRequirement(op), message: `answered ${status}, a server error`, field: STATUS }
    : undefined;

/** A token the target never issued gets 401 ("An expired or invalid token gets 401"); a 429 means later. */
export const madeUpTokenRefused: Oracle = ({ status }, context) => {
  const rule = tokenRule(context);
  if (rule === undefined || status === 401 || status === 429) return undefined;
  return {
    requirement: rule,
    message: `answered ${status} to a token the target never issued, not 401`,
    field: STATUS,
  };
};

/** A status the operation lists (a made-up token's is judged by its own rule). */
export const listedStatus: Oracle = ({ status }, context) => {
  const { op } = context;
  if (tokenRule(context) !== undefined || op.statuses.includes(status)) return undefined;
  return {
    requirement: successRequirement(op),
    message: `status ${status} is not one ${op.operationId} lists (${op.statuses.join(', ')})`,
    field: STATUS,
  };
};

/** A status whose response has a schema answers JSON: application/json, and a body that parses. */
export const jsonBody: Oracle = (answer, { op }) => {
  if (schemaOf(op, answer.status) === null) return undefined;
  const requirement = jsonBodyRequirement(op);
  const type = answer.headers['content-type'] ?? '';
  if (!isJsonContentType(type))
    return {
      requirement,
      message: `content-type is "${type}", not application/json`,
      field: headerField('content-type'),
    };
  return bodyOf(answer).ok ? undefined : { requirement, message: 'the body is not JSON', field: BODY };
};

/** The body is valid by the schema of the operation's response for its status (a null read as absent). */
export const validBody: Oracle = (answer, { op }) => {
  const schema = schemaOf(op, answer.status);
  const body = bodyOf(answer);
  if (schema === null || !body.ok) return undefined;
  const [violation] = validate(schema, body.value).errors;
  if (!violation) return undefined;
  return {
    requirement: successRequirement(op),
    message: `the body breaks ${schema}: ${formatViolation(violation)} (${attributed(violation).requirement})`,
    field: bodyField(violation.pointer),
  };
};

/** The status of the copy the check went on with: one request, one answer (a 429 means later). */
export const sameStatusAsUsed: Oracle = ({ status }, context) => {
  const { op, usedStatus } = context;
  if (usedStatus === undefined || tokenRule(context) !== undefined) return undefined;
  if (status === usedStatus || status === 429 || usedStatus === 429) return undefined;
  return {
    requirement: successRequirement(op),
    message: `answered ${status}, where the copy the check went on with got ${usedStatus}`,
    field: STATUS,
  };
};

/** In the order they judge: the status first, then the body, then the agreement with the check's copy. */
export const SENDING_ORACLES: readonly Oracle[] = [
  noServerError,
  madeUpTokenRefused,
  listedStatus,
  jsonBody,
  validBody,
  sameStatusAsUsed,
];

/** The first oracle `answer` breaks (an answer is charged once); undefined where it breaks none. */
export function brokenOracle(answer: TransportResponse, context: SendingContext): OracleProblem | undefined {
  for (const oracle of SENDING_ORACLES) {
    const problem = oracle(answer, context);
    if (problem) return problem;
  }
  return undefined;
}
