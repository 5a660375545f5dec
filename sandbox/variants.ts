// The catalogue of conforming variants: alternative behaviours the seed ALLOWS (the mirror of the faults in
// faults/). A conformance suite must report no failure against a sandbox running any of them. Each variant
// quotes the seed sentence(s) that allow it; the code checks `ctx.variant(name)` where the behaviour lives,
// and a variant that only rewrites a response is a row of variant-responses.ts (applied by responses.ts).
// tests/self/sandbox-variants*.spec.ts show each one changes what it says and that every response still
// conforms.

export interface VariantDefinition {
  description: string;
  /** The seed sentence(s) that allow the variant, quoted. */
  seed: string;
  /**
   * What a team whose server behaves so tells the suite (variables of docs/variables.md, "Running against your
   * server"): `npm run variants` runs the suite with them. Absent: the suite's defaults.
   */
  suite?: Readonly<Record<string, string>>;
}

export const variants = {
  'nulls-for-absent': {
    description:
      'every absent optional field of a user-data or partner response is serialised as JSON null (end, score, v1_id, optional score fields, next_token, task_business_status, patient and appointment fields)',
    seed: '"| end | date-time | no | absent means the user is currently in this cycle |"; "| next_token | string | opaque cursor; absent means no more records |"; the seed marks these fields not required and states no JSON encoding of an absent value.',
  },
  'test-data-204': {
    description:
      'POST /v2/partner/development/add-test-data answers 204 without a body (the requisition is still generated)',
    seed: '"204 generated (reference samples show a 200 body with requisition_id, a uuid string)"',
  },
  'test-data-location': {
    description:
      'POST /v2/partner/development/add-test-data answers 204 without a body and names the generated requisition in a Location header (the path of GET /v2/partner/requisition/{id})',
    seed: '"204 generated (reference samples show a 200 body with requisition_id, a uuid string)"; "The result is fetched with GET /v2/partner/requisition/{id}." (the seed does not say how a 204 names the requisition; RFC 9110 §10.2.2 lets a Location header name the resource a request created)',
  },
  'offset-cursor': {
    description:
      'next_token is an unsigned, decodable offset (base64url of {"o":N}), bound to neither user nor query: any decodable cursor is served from the caller\'s own data for the current query, an undecodable one gets 400',
    seed: '"| next_token | string | opaque cursor; absent means no more records |"; "| nextToken | string | the next_token of the previous response; absent returns the first page |"',
  },
  'no-lookahead-cursor': {
    description:
      'a full page (records.length === limit) always carries a next_token; following it past the end answers { records: [] } without next_token',
    seed: '"| next_token | string | opaque cursor; absent means no more records |" (the seed does not say a present next_token promises more records)',
  },
  'small-limits-short-last-page': {
    description:
      'with a limit below 25, every page holds exactly limit records but the last, which holds what is left, fewer or none: a full page always carries a next_token, so a window that fills its pages exactly ends on an empty page (limit 25 still looks ahead)',
    seed: '"| limit | integer int32 | maximum 25, default 10 |"; "| next_token | string | opaque cursor; absent means no more records |" (nothing says a page that leads to another is not followed by an empty one)',
  },
  'local-time-stamps': {
    description:
      "every date-time of a user record (start, end, created_at, updated_at) is written in the record's own timezone_offset (a recovery: its cycle's) without fraction digits, e.g. 2026-11-21T03:21:42-05:00: another offset and precision than any the client sends",
    seed: "\"Timestamps are ISO 8601 date-time strings.\"; \"| timezone_offset | string | yes | time zone designator: '+hh:mm', '-hh:mm' or 'Z' |\" (no offset or precision is prescribed for the timestamps themselves)",
  },
  'utc-microseconds': {
    description:
      'every date-time of a user record is normalised to UTC written +00:00 with 6 fraction digits (2026-11-21T08:21:42.000000+00:00), and timezone_offset Z is written +00:00',
    seed: "\"Timestamps are ISO 8601 date-time strings.\"; \"| timezone_offset | string | yes | time zone designator: '+hh:mm', '-hh:mm' or 'Z' |\"",
  },
  'empty-address-lines': {
    description:
      "a MOBILE test appointment's collection_address has building, area and emirate as empty strings (landmark and flat_no as before)",
    seed: '"collection_address (object, optional): building (string, required), area (string, required), emirate (string, required)" (an empty string is a string; no length is stated)',
  },
  'long-history': {
    description:
      'each user has about three years of history (1,100 cycles, some 1,250 sleeps and 1,000 workouts), as a long-standing account has: a run must send no more requests for it',
    seed: '"Collections are paginated, newest first."; "| start | date-time | ... without it there is no lower bound |" (no bound on how much history a user has)',
  },
  'start-after-end-empty': {
    description: 'start after end answers 200 { records: [] } instead of 400',
    seed: '"| start | date-time | include records that occurred after or during (inclusive) this time"; "| end | date-time | include records that intersect this time or ended before (exclusive) it"; "400 | client error constructing the request" (an empty interval is not stated to be a client error)',
  },
  'closed-interval-filters': {
    description:
      'start and end select the records intersecting the closed interval [start, end]: record.start <= end and record.end >= start (a record without end counts as ongoing)',
    seed: '"| start | date-time | include records that occurred after or during (inclusive) this time"; "| end | date-time | include records that intersect this time or ended before (exclusive) it; defaults to now |"',
  },
  'start-ties': {
    description:
      "a day's second workout starts when its first does (two workouts share a start time), and pages of fewer than 10 records list records of equal start time in the reverse order of larger pages (sandbox/user/collection.ts)",
    seed: '"cycles, sleeps and workouts are sorted by start time, descending." (nothing orders records of equal start time, nor says that two workouts cannot start together)',
  },
  'lenient-limits': {
    description:
      'limit=0, a negative limit and an empty limit= are served with the default page of 10; abc, 1.5 and values over 25 still get 400',
    seed: '"| limit | integer int32 | maximum 25, default 10 |" (no minimum is stated)',
  },
  'limit-capped': {
    description:
      'an integer limit over 25, of any size (2147483648 and longer too), is served capped at the maximum: a page of at most 25 records, as a server that parses limit as a big number and caps it does; abc and 1.5 still get 400',
    seed: '"| limit | integer int32 | maximum 25, default 10 |"; "| limit query parameter, maximum | 25 |" (the seed states the maximum, not whether a larger value, within int32 or beyond it, is refused or capped)',
  },
  'int64-overflow-404': {
    description:
      'an all-digit path id beyond the int64 range (cycleId=9223372036854775808, activityV1Id likewise) names no record and gets 404; a non-integer id (abc, 1.0) still gets 400',
    seed: '"| GET /v2/cycle/{cycleId} | cycleId integer int64 |"; "| 404 | no resource found, or requested resource not found | single-record reads, cycle sleep, cycle recovery, ... |" (an integer beyond the range is not stated to be malformed rather than not found)',
  },
  'empty-filter-absent': {
    description:
      'an empty start= or end= is served as if absent (no lower bound; end now); a malformed date-time (yesterday, 2025-13-45T00:00:00Z) still gets 400',
    seed: '"| start | date-time | ... without it there is no lower bound |"; "| end | date-time | ... defaults to now |" (an empty value is not stated to be a malformed date-time rather than no value)',
  },
  'token-400': {
    description:
      'a partner token request missing client_id or client_secret gets 400 instead of 401; wrong credentials still get 401',
    seed: '"| PartnerTokenRequest | client_id | string | yes |"; "400 | client error constructing the request"; "POST /v2/partner/token | JSON PartnerTokenRequest | 200 PartnerTokenResponse; 401 invalid client credentials"',
  },
  'other-refusal-statuses': {
    description:
      "refusals whose status the seed states loosely or not at all get other 4xx: a user token lacking the scope 403 (RFC 6750 insufficient_scope), another user's record id 403, a partner request without Authorization 403, a partner token request whose body is not a JSON object 422; invalid tokens and invalid client credentials still get 401",
    seed: '"| 401 | invalid authorization | all user data operations; ..." (RFC 6750 answers a token lacking the scope with 403 insufficient_scope, a reasonable reading of "invalid authorization": a warning); "It returns one user\'s physiological data" (no status is named for another user\'s ids); "4. An expired or invalid token gets 401." (no status for a missing partner token); "POST /v2/partner/token | JSON PartnerTokenRequest | 200 PartnerTokenResponse; 401 invalid client credentials" (no status for a malformed body)',
  },
  'lenient-results': {
    description:
      'POST /v2/partner/service-request/{id}/results with unexpected field types (status: 5, observations: "x") answers 201; ownership 404s unchanged',
    seed: '"| POST /v2/partner/service-request/{id}/results | id uuid; JSON DiagnosticReportCreateRequest | 201 no body; 404 not found or caller not an owner |" (no 400 is listed for partner operations)',
  },
  'user-token-minimal': {
    description:
      'the user OAuth token endpoint answers only { access_token } (no token_type, expires_in, scope or refresh_token)',
    seed: '"Refresh-token behaviour and the user token request parameters: not shown."',
  },
  'basic-client-auth': {
    description:
      'the user OAuth token endpoint accepts client credentials only by HTTP Basic (RFC 6749 §2.3.1); credentials in the form body get 401 invalid_client with WWW-Authenticate: Basic',
    seed: '"Token URL: {auth_url}/oauth/oauth2/token."; "Refresh-token behaviour and the user token request parameters: not shown."',
  },
  'pkce-required': {
    description:
      'the authorization server requires PKCE (RFC 7636): an authorization request without code_challenge goes back to the redirect URI with error=invalid_request ("code_challenge is required", as §4.4.1 prescribes), and a code is redeemed only with its code_verifier',
    seed: '"Scheme: OAuth 2.0 authorization code flow."; "Refresh-token behaviour and the user token request parameters: not shown." (the seed shows no authorization request parameter beyond the flow; RFC 7636 §4.4.1 lets a server require PKCE, as the OAuth 2.0 Security BCP, RFC 9700, recommends for every client)',
  },
  'checkbox-consent': {
    description:
      'a three-step sign-in, as --login-page checkboxes serves it: the e-mail alone, then the password, then a consent page listing the scopes asked for as checkboxes named scope, all ticked, in the form whose submit control is <input type="submit" value="Allow">; the grant holds exactly the scopes submitted (sandbox/oauth/sign-in.ts)',
    seed: '"Scheme: OAuth 2.0 authorization code flow."; "Authorization URL: {auth_url}/oauth/oauth2/auth."; "Description list of the scopes: not shown."; "Refresh-token behaviour and the user token request parameters: not shown." (the seed shows no sign-in or consent page: they are the authorization server\'s)',
  },
  'checkbox-consent-unticked': {
    description:
      "the checkbox consent page of checkbox-consent, where the user has unticked read:workout: every grant lacks it, and the token response's scope says so; operations of read:workout answer 401 to its tokens",
    seed: '"It returns one user\'s physiological data after that user has granted access by OAuth 2.0"; "Scopes used by operations: read:cycles, read:recovery, read:sleep, read:workout, read:body_measurement, read:profile."; "Refresh-token behaviour and the user token request parameters: not shown." (what the user grants is the user\'s choice; RFC 6749 §3.3 lets the grant differ from the scope asked for, and §5.1 makes the token response say so)',
  },
  'wider-grant': {
    description:
      'the authorization server grants every read scope whatever the sign-in asked for, and its token response says so ("scope" lists all six): a token asked for read:cycles alone also reads sleeps (sandbox/oauth/routes.ts)',
    seed: '"Scopes used by operations: read:cycles, read:recovery, read:sleep, read:workout, read:body_measurement, read:profile."; "Description list of the scopes: not shown."; "Refresh-token behaviour and the user token request parameters: not shown." (the seed does not say a grant holds only the scopes asked for; RFC 6749 §3.3 lets the server grant otherwise, and §5.1 makes the token response say so)',
  },
  'body-measurement-a-only': {
    description:
      'user B has no body measurement (GET /v2/user/measurement/body answers 404 to its tokens); user A keeps every resource (sandbox/user/services.ts)',
    seed: '"| 404 | no resource found, or requested resource not found | single-record reads, cycle sleep, cycle recovery, body measurement, basic profile, activity mapping |" (a user may have no body measurement)',
  },
  'iframe-consent': {
    description:
      'a two-step sign-in whose consent form is in a same-origin <iframe> of the consent page: the username and password, then a page with the scopes and a frame (GET /oauth/oauth2/consent-frame, by the sign-in session\'s cookie) holding the "Cancel" / "Accept" form, which posts from the frame (sandbox/oauth/sign-in.ts); the suite signs in by its default, the HTTP form filler',
    seed: '"Scheme: OAuth 2.0 authorization code flow."; "Authorization URL: {auth_url}/oauth/oauth2/auth."; "Description list of the scopes: not shown." (the seed shows no sign-in or consent page: their markup is the authorization server\'s)',
  },
  'iframe-consent-browser': {
    description:
      "the sign-in of iframe-consent, the suite signing in with the browser (CONFORMANCE_SIGN_IN=browser): the consent form is found in the page's frame",
    seed: '"Scheme: OAuth 2.0 authorization code flow."; "Authorization URL: {auth_url}/oauth/oauth2/auth."; "Description list of the scopes: not shown." (the seed shows no sign-in or consent page: their markup is the authorization server\'s)',
    suite: { CONFORMANCE_SIGN_IN: 'browser' },
  },
  'sparse-user': {
    description:
      'user A has exactly 3 cycles (the newest current), no naps, no SCORED recovery, no workout and no body measurement (404); user B has no data at all (empty collections, body measurement 404); basic profiles stay',
    seed: '"Single-record reads, GET /v2/cycle/{cycleId}/sleep and GET /v2/cycle/{cycleId}/recovery, also return 404 when no resource is found."; "| 404 | no resource found, or requested resource not found | ... body measurement, basic profile ... |"',
  },
  'few-records-user-b': {
    description:
      'user B has two records of each collection: its two newest cycles (the newest current), their main sleeps and recoveries, and two workouts; user A keeps its whole history (sandbox/user/sparse.ts)',
    seed: '"Collections are paginated, newest first."; "| next_token | string | opaque cursor; absent means no more records |" (nothing says how many records a user has)',
  },
  'short-partner-tokens': {
    description:
      'every partner access token lives 20 s (expires_in 20, refused with 401 after), and the sandbox-only sandbox_expires_in of a partner token request is ignored, as a server of another team would ignore a field it does not know (sandbox/partner/token-route.ts)',
    seed: '"| partner access token lifetime | given per response in expires_in, in seconds |"; "2. The response carries access_token, token_type (bearer) and expires_in (seconds until expiry)."',
  },
  slow: {
    description:
      'every user-data collection response (listCycles, listSleeps, listRecoveries, listWorkouts) is sent 60 ms late (sandbox/user/collection.ts SLOW_VARIANT_DELAY_MS)',
    seed: '"Requests over the rate limit get 429. The rate limit values and windows: not shown." (the Limits section states sizes, scales and the rate limit, no response time for any operation)',
  },
  'long-tail': {
    description:
      "a long tail of slow answers: of the answers of the service's operations, about 1 in 40 leaves 2.5 s late and 1 in 300 12 s late, every one of them correct; which ones is drawn from the instance's seed, answer by answer (sandbox/late-answers.ts)",
    seed: '"Requests over the rate limit get 429. The rate limit values and windows: not shown." (the Limits section states sizes, scales and the rate limit, no response time for any operation)',
  },
  'every-answer-700ms': {
    description:
      'a correct server that is slow throughout: every answer of the service, its sign-in pages and token endpoint too, leaves 700 ms late (sandbox/late-answers.ts); its team pins the budgeted depth, so that the run fits its budget',
    seed: '"Requests over the rate limit get 429. The rate limit values and windows: not shown." (the Limits section states sizes, scales and the rate limit, no response time for any operation)',
    suite: { CONFORMANCE_DEPTH: 'budgeted' },
  },
  'idle-connection-reset': {
    description:
      'the service behind a load balancer that forgets a kept-alive connection idle for 1 s without closing it: the next request on it gets a TCP reset before any byte of an answer and never reaches the service (sandbox/idle-connections.ts)',
    seed: '"All operations are HTTP with JSON bodies." (RFC 9112 §9.3.1 lets a server close an idle connection at any time, and a client retries an idempotent request on a new one)',
  },
  'timestamped-webhook-signatures': {
    description:
      'webhooks carry Service-Timestamp (unix seconds) and Service-Signed is the hex HMAC-SHA256 of that value followed by the raw body (sandbox/webhooks.ts)',
    seed: '"Webhook requests carry the header Service-Signed, checked with the partner\'s signing secret."; "The signature algorithm and what is signed: not shown."',
    suite: { CONFORMANCE_SIGNATURE_TIMESTAMP_HEADER: 'Service-Timestamp' },
  },
  'ietf-rate-limit-headers': {
    description:
      'rate-limited responses announce the limit only through the IETF fields RateLimit-Policy ("default";q=LIMIT;w=WINDOW) and RateLimit ("default";r=REMAINING;t=RESET), no X-RateLimit-*; a 429 still carries Retry-After (sandbox/rate-limit.ts)',
    seed: '"Requests over the rate limit get 429. The rate limit values and windows: not shown." (no response header is named)',
    suite: { CONFORMANCE_RATE_LIMIT_HEADERS: 'Retry-After,RateLimit,RateLimit-Policy' },
  },
  'production-rate-limits': {
    description:
      'a production deployment\'s limits, scaled for tests: every client is limited by two fixed windows, 50 requests per 10 s and 10,000 per 86,400 s (whatever --rate-limit says); X-RateLimit-Limit lists them after the governing limit ("50, 50;window=10, 10000;window=86400"), X-RateLimit-Remaining and -Reset are the policy\'s with the fewest remaining, and a 429 carries no Retry-After (sandbox/rate-limit.ts)',
    seed: '"Requests over the rate limit get 429. The rate limit values and windows: not shown." (neither the number of limits nor the headers of a 429 are stated)',
    suite: { CONFORMANCE_RATE_LIMIT_HEADERS: 'X-RateLimit-Limit,X-RateLimit-Remaining,X-RateLimit-Reset' },
  },
  'rate-limit-without-window': {
    description:
      'production\'s limits, scaled for tests (50 requests per 10 s and 10,000 per 86,400 s per client, whatever --rate-limit says), announced without their window: X-RateLimit-Limit is the governing limit alone ("50"), with X-RateLimit-Remaining and -Reset (seconds), and a 429 carries no Retry-After; the window is for the client to learn (sandbox/rate-limit.ts)',
    seed: '"Requests over the rate limit get 429. The rate limit values and windows: not shown." (nothing says a response names its window)',
    suite: { CONFORMANCE_RATE_LIMIT_HEADERS: 'X-RateLimit-Limit,X-RateLimit-Remaining,X-RateLimit-Reset' },
  },
  'short-lived-tokens': {
    description:
      'every user and partner access token lives 60 s (expires_in 60, refused with 401 after), and every user token response carries a refresh token, whatever the scope asked, that works once: its refresh answers a new one in its place (sandbox/app.ts SHORT_TOKEN_LIFETIME_SECONDS, sandbox/oauth/tokens.ts)',
    seed: '"Refresh-token behaviour and the user token request parameters: not shown."; "| partner access token lifetime | given per response in expires_in, in seconds |"; "2. The response carries access_token, token_type (bearer) and expires_in (seconds until expiry)."',
  },
  'clock-aligned-rate-limit': {
    description:
      "every rate-limit window, a client's and a token's own, is aligned to the clock: it starts at a multiple of its length since the Unix epoch (a 1-s window at each second), not at the client's first request, so a burst may begin at any point of a window and cross into the next (sandbox/rate-limit.ts)",
    seed: '"Requests over the rate limit get 429. The rate limit values and windows: not shown."',
  },
} as const satisfies Record<string, VariantDefinition>;

export type VariantName = keyof typeof variants;

/** The suite configuration a variant's team gives (see VariantDefinition.suite). */
export const suiteConfigurationOf = (name: VariantName): Readonly<Record<string, string>> =>
  (variants[name] as VariantDefinition).suite ?? {};
