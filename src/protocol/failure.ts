// A check's failure, typed: the error a check throws (or records and goes on) and the finding it becomes,
// redacted, naming the requirement, the exchange it rests on and the offending fields. A test's and the
// preflight's alike: whoever catches it records its finding (src/worker/suite/ending-recorder.ts, run-findings.ts).
import { describeExchange, type Exchange } from '../http/exchange.ts';
import { redactText } from '../http/redact.ts';
import { exchangeRef } from './exchange-sink.ts';
import { restOn } from './failure-exchanges.ts';
import type { Finding } from './finding.ts';

/** What else a failure rests on: the exchange (where the evidence is other text), the offending fields. */
export interface FailureBasis {
  /** The exchange it rests on, kept in the result even where a read shared between checks sent it. */
  exchange?: Exchange;
  /** Where in that answer the rule broke: JSON pointers into {status, headers, body} (`/body/records/3/id`). */
  fields?: readonly string[];
  /** A property's failure: its fast-check seed and the command that replays it (src/worker/verdict/property-replay.ts). */
  replay?: Finding['replay'];
  /** The curl of the request it rests on where no exchange is (a request left without an answer). */
  curl?: string;
}

/** A check's failure: its finding, and as text "[ID] message" and the evidence, for whoever reads the error. */
export class ConformanceFailure extends Error {
  readonly finding: Finding;
  /** The exchange it rests on and its offending fields, for a check that states the failure again. */
  readonly basis: FailureBasis;

  constructor(
    readonly requirement: string,
    message: string,
    /** The exchange behind the failure (its line and curl), or other context. */
    evidence?: string | Exchange,
    basis: FailureBasis = {},
  ) {
    const exchange = typeof evidence === 'object' ? evidence : basis.exchange;
    const text = typeof evidence === 'object' ? describeExchange(evidence) : evidence;
    const id = exchange && exchangeRef(exchange);
    const fields = [...new Set(basis.fields ?? [])];
    // Redacted here, before Playwright sees it: a quoted body may carry a token the service just issued.
    const finding: Finding = {
      requirement,
      outcome: 'fail',
      message: redactText(message),
      ...(text ? { evidence: redactText(text) } : {}),
      ...(id ? { exchange: id } : {}),
      ...(fields.length > 0 ? { fields } : {}),
      ...(basis.replay ? { replay: basis.replay } : {}),
      ...(basis.curl ? { curl: redactText(basis.curl) } : {}),
    };
    super(`[${requirement}] ${finding.message}${finding.evidence ? `\n${finding.evidence}` : ''}`);
    this.name = 'ConformanceFailure';
    this.finding = finding;
    this.basis = { ...basis, exchange, fields };
    if (exchange) restOn(finding, exchange);
  }

  /**
   * The same failure said again (a property's, with fast-check's report): on the same exchange and fields,
   * with what `more` adds (its replay).
   */
  restated(message: string, evidence: string | undefined, more: FailureBasis = {}): ConformanceFailure {
    return new ConformanceFailure(this.requirement, message, evidence, { ...this.basis, ...more });
  }
}
