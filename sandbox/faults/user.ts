// Injectable faults of the user-data side (user data API, user OAuth, activity mapping). Each one breaks
// exactly one requirement of specs/requirements.yaml; the code checks `ctx.fault(name)` where the broken
// behaviour lives, and a fault that only changes a response is a row of sandbox/fault-responses.ts.
// tests/self/sandbox-faults.spec.ts (its probes in sandbox-fault-probes-*.ts) proves each one changes what
// it names.
import { userStatusFaults } from './status.ts';
import { type FaultDefinition, faultsOf } from './types.ts';

type UserFault = FaultDefinition & { area: 'user-data' | 'auth' | 'utility' };

const data = faultsOf('user-data');
const auth = faultsOf('auth');
const utility = faultsOf('utility');

export const userFaults = {
  // ---------------------------------------------------------------- schemas and formats
  'cycle-timezone-offset-malformed': data(
    'SCH-TIMEZONE-OFFSET',
    "cycles carry timezone_offset '-0500' (no colon)",
  ),
  'cycle-missing-user-id': data('SCH-CYCLE', 'cycles lack the required user_id'),
  'cycle-score-missing-kilojoule': data('SCH-CYCLE-SCORE', 'cycle scores lack the required kilojoule'),
  'sleep-nap-not-boolean': data('SCH-SLEEP', "sleeps carry nap as the string 'false'/'true'"),
  'sleep-stage-summary-missing-field': data(
    'SCH-SLEEP-SCORE',
    'sleep stage summaries lack sleep_cycle_count',
  ),
  'sleep-stage-int32-overflow': data('SCH-INTEGER-FORMATS', 'sleep total_in_bed_time_milli exceeds int32'),
  'recovery-missing-user-id': data('SCH-RECOVERY', 'recoveries lack the required user_id'),
  'recovery-score-missing-hrv': data(
    'SCH-RECOVERY-SCORE',
    'recovery scores lack the required hrv_rmssd_milli',
  ),
  'workout-sport-id-string': data('SCH-WORKOUT', 'workouts carry sport_id as a string'),
  'workout-created-at-malformed': data(
    'SCH-DATE-TIME',
    "workouts carry created_at as 'YYYY-MM-DD HH:mm' without zone",
  ),
  'body-measurement-missing-max-heart-rate': data(
    'SCH-BODY-MEASUREMENT',
    'body measurement lacks max_heart_rate',
  ),
  'profile-user-id-string': data('SCH-BASIC-PROFILE', 'the basic profile carries user_id as a string'),
  'envelope-records-renamed': data('SCH-ENVELOPE', 'collections answer { data } instead of { records }'),
  'score-state-unknown-value': data(
    'INV-SCORE-STATE-ENUM',
    "PENDING_SCORE cycles carry score_state 'PENDING'",
  ),
  'profile-not-json': data('OP-JSON-BODIES', 'the basic profile is sent as text/plain'),
  'cycles-without-limit-not-json': data(
    'OP-JSON-BODIES',
    'GET /v2/cycle without a limit answers 200 with an HTML page (text/html), not JSON',
  ),
  // ---------------------------------------------------------------- an answer of the server's, wherever read
  'user-b-collection-500': data('OP-LIST-CYCLES', 'GET /v2/cycle answers user B 500 (user A is served)'),
  'late-first-copy-404': data(
    'OP-GET-CYCLE',
    'the first GET /v2/cycle/{cycleId} the instance would answer 200 leaves 12 s late (past any resend mark) as a 404, as if the cycle did not exist; the copy the client sends again meanwhile, and every later read, is right (option lateFirstCopyMs)',
  ),
  'late-first-copy-broken-body': data(
    'OP-GET-SLEEP',
    "the first GET /v2/activity/sleep/{sleepId} the instance answers leaves 12 s late with a body that breaks the Sleep schema (nap as the string 'false'/'true'); the copy the client sends again meanwhile, and every later read, is right (option lateFirstCopyMs)",
  ),
  // ---------------------------------------------------------------- versioning
  'sleep-id-v1-integer': data('VER-V2-IDS', 'sleeps carry their integer V1 id as id'),
  'recovery-sleep-id-integer': data('VER-V2-RECOVERY-SLEEP-ID', 'recoveries carry an integer sleep_id'),
  'workout-zone-duration-singular': data(
    'VER-V2-ZONE-DURATIONS',
    'workout scores carry zone_duration (V1 name)',
  ),
  'sleep-v1-id-after-cutoff': data('VER-SLEEP-V1-ID-CUTOFF', 'sleeps after 2025-09-01 carry a v1_id'),
  // ---------------------------------------------------------------- invariants
  'cycle-score-when-pending': data('INV-CYCLE-SCORE-IFF-SCORED', 'PENDING_SCORE cycles carry a score'),
  'sleep-score-missing-when-scored': data('INV-SLEEP-SCORE-IFF-SCORED', 'SCORED sleeps lack their score'),
  'recovery-score-when-unscorable': data(
    'INV-RECOVERY-SCORE-IFF-SCORED',
    'UNSCORABLE recoveries carry a score',
  ),
  'cycle-strain-over-21': data('INV-STRAIN-RANGE', 'cycle strain values above 21'),
  'recovery-score-over-100': data('INV-PERCENTAGE-RANGE', 'recovery_score values above 100'),
  'sleep-nap-need-positive': data('INV-NAP-NEED-NONPOSITIVE', 'need_from_recent_nap_milli is positive'),
  'old-cycle-missing-end': data('INV-CURRENT-CYCLE-END', 'an older cycle (the third newest) lacks end'),
  'cycle-end-before-start': data(
    'INV-END-NOT-BEFORE-START',
    'the newest ended cycle ends an hour before it starts, in the collection and read by id',
  ),
  // ---------------------------------------------------------------- consistency
  'cycle-sleep-wrong-cycle': data(
    'CONS-CYCLE-SLEEP',
    "GET /v2/cycle/{id}/sleep returns the previous cycle's sleep",
  ),
  'cycle-recovery-wrong-cycle': data(
    'CONS-CYCLE-RECOVERY',
    "GET /v2/cycle/{id}/recovery returns the previous cycle's recovery",
  ),
  'single-cycle-differs': data(
    'CONS-SINGLE-MATCHES-COLLECTION',
    'a cycle read by id has another updated_at than in the collection',
  ),
  'recovery-sleep-id-dangling': data(
    'CONS-RECOVERY-REFERENCES',
    'recoveries point to a sleep id that does not exist',
  ),
  'sleep-cycle-id-dangling': data(
    'CONS-SLEEP-CYCLE-REFERENCE',
    'naps point to a cycle id that does not exist',
  ),
  'foreign-records-visible': data('DATA-OWN-USER-ONLY', "another user's records are served by id"),
  // ---------------------------------------------------------------- pagination
  'pagination-default-not-10': data('PAG-LIMIT-DEFAULT', 'the default page size is 12'),
  'pagination-limit-25-rejected': data('PAG-LIMIT-MAX', 'limit=25 gets 400 (maximum 24)'),
  'pagination-limit-26-accepted': data('PAG-LIMIT-OVER-MAX', 'limit=26 is accepted'),
  'pagination-limit-fraction-accepted': data('PAG-LIMIT-TYPE', 'limit=1.5 is accepted and truncated'),
  'pagination-page-exceeds-limit': data('PAG-PAGE-WITHIN-LIMIT', 'a page holds limit+1 records'),
  'pagination-limit-off-by-one': data(
    'PAG-PAGE-WITHIN-LIMIT',
    'with limit from 14 to 19 (one branch of the page sizing) a page holds limit+1 records',
  ),
  'pagination-deep-page-drops-record': data(
    'PAG-NEXT-TOKEN',
    'with limit below 10, page 5 and every later page start one record late: the record at the boundary is never served',
  ),
  'pagination-first-page-skips-newest': data(
    'PAG-FIRST-PAGE',
    'the first page starts at the second newest record',
  ),
  'pagination-next-token-on-last-page': data(
    'PAG-LAST-PAGE',
    'the last page carries a next_token that gets 400 when followed',
  ),
  'pagination-duplicate-across-pages': data(
    'PAG-NEXT-TOKEN',
    'the next page repeats the last record of the previous one',
  ),
  'pagination-skips-record': data('PAG-NEXT-TOKEN', 'the next page skips one record'),
  'pagination-small-pages-reordered': data(
    'PAG-PAGE-SIZE-INDEPENDENT',
    'with limit < 10 the pages are cut from a sequence whose adjacent pairs (2k, 2k+1) are swapped',
  ),
  'pagination-foreign-cursor-leaks': data(
    'PAG-CURSOR-INVALID',
    "user B presenting user A's cursor is served user A's records",
  ),
  'pagination-tampered-cursor-500': data('PAG-CURSOR-INVALID', 'a cursor with a broken signature gets 500'),
  // ---------------------------------------------------------------- ordering
  'cycle-order-ascending': data('ORD-CYCLES', 'cycles are sorted by start ascending'),
  'sleep-order-ascending': data('ORD-SLEEPS', 'sleeps are sorted by start ascending'),
  'workout-order-ascending': data('ORD-WORKOUTS', 'workouts are sorted by start ascending'),
  'recovery-order-ascending': data('ORD-RECOVERIES', 'recoveries are sorted by sleep start ascending'),
  'recovery-order-by-updated': data(
    'ORD-RECOVERIES',
    'recoveries are sorted by updated_at instead of sleep start',
  ),
  // ---------------------------------------------------------------- filters
  'filter-start-exclusive': data('FLT-START-INCLUSIVE', 'a record starting exactly at start is left out'),
  'filter-start-ignored-earlier': data(
    'FLT-START-EXCLUDES-EARLIER',
    'start also lets in the two records just before the window (at least one ended strictly before start)',
  ),
  'filter-start-ignored': data(
    'FLT-START-EXCLUDES-EARLIER',
    'start is ignored: every record up to end is served, however long ago it ended',
  ),
  'filter-lower-bound-30-days': data('FLT-NO-LOWER-BOUND', 'without start only the last 30 days are served'),
  'filter-end-ignored': data(
    'FLT-END-EXCLUSIVE',
    'the record starting just after end (strictly later) is also included',
  ),
  'filter-end-default-not-now': data('FLT-END-DEFAULT-NOW', 'without end, end defaults to 24 hours ago'),
  'filter-malformed-date-ignored': data('FLT-MALFORMED-DATE', 'a malformed start or end is ignored (200)'),
  'filter-offset-dropped': data(
    'FLT-DATE-TIME-FORMS',
    'a start or end written with a UTC offset other than Z is read as UTC (10:00+05:30 as 10:00Z)',
  ),
  'filter-fraction-truncated': data(
    'FLT-END-INCLUDES-EARLIER',
    "start and end are truncated to whole seconds: end one millisecond after a record's start leaves that record out",
  ),
  'filter-end-rounded-up': data(
    'FLT-END-EXCLUSIVE',
    'end is rounded up to the next whole minute: a record starting less than a minute after end is served',
  ),
  'filter-start-truncated': data(
    'FLT-START-DURING',
    'start is truncated to the whole second: a record under way at start, begun within that second, is served',
  ),
  'filter-far-offset-500': data(
    'ERR-NO-5XX-ON-CLIENT-INPUT',
    'a start or end written with an offset beyond ±12:00 (+13:00, +14:00) gets 500',
  ),
  // ---------------------------------------------------------------- errors
  'malformed-id-404': data(
    'ERR-400-MALFORMED-PARAMETER',
    'a malformed cycleId, sleepId or workoutId gets 404',
  ),
  'unknown-cycle-returns-newest': data(
    'ERR-404-UNKNOWN-RECORD',
    'an unknown cycle id returns the newest cycle',
  ),
  'cycle-subresource-unknown-200': data(
    'ERR-404-CYCLE-SUBRESOURCE',
    "an unknown cycle's recovery returns the newest recovery",
  ),
  'server-error-on-large-cycle-id': data(
    'ERR-NO-5XX-ON-CLIENT-INPUT',
    'an int64 path id beyond 2^53 (cycleId, activityV1Id) gets 500',
  ),
  'first-copy-late-500': data(
    'OP-GET-BODY-MEASUREMENT',
    'the first GET /v2/user/measurement/body is answered 500, 3 s late (past the resend mark); every later one, its second copy among them, is right',
  ),
  // ---------------------------------------------------------------- rate limiting
  'rate-limit-never-429': data('RL-429', 'requests over the rate limit are served'),
  'rate-limit-429-without-headers': data(
    'RL-429',
    'a 429 carries neither Retry-After nor X-RateLimit-* (the headers the sandbox documents)',
  ),
  'rate-limit-429-within-budget': data(
    'RL-ANNOUNCED-LIMIT',
    'GET /v2/user/profile/basic always answers 429 with Retry-After: 1, its X-RateLimit-Remaining announcing room',
  ),
  // ---------------------------------------------------------------- authentication, scopes, revocation
  'oauth-state-not-returned': auth(
    'AUTH-CODE-FLOW',
    'the authorization redirect to the redirect URI omits the state the client sent (RFC 6749 §4.1.2)',
  ),
  'oauth-authorize-500': auth(
    'AUTH-CODE-FLOW',
    'the authorization endpoint (GET /oauth/oauth2/auth) answers 500, an HTML error page',
  ),
  'oauth-authorize-500-mid-run': auth(
    'AUTH-CODE-FLOW',
    'the authorization endpoint works for the first sign-in (option brokenFromSignIn: more), then answers 500',
  ),
  'oauth-authorize-404': auth(
    'AUTH-CODE-FLOW',
    'the authorization endpoint answers 404 from the first sign-in',
  ),
  'oauth-authorize-404-mid-run': auth(
    'AUTH-CODE-FLOW',
    'the authorization endpoint works for the first sign-in (option brokenFromSignIn: more), then answers 404',
  ),
  'oauth-authorize-redirect-loop': auth(
    'AUTH-CODE-FLOW',
    'on every other sign-in (the first, the third...) the authorization endpoint redirects to itself without end',
  ),
  'oauth-login-post-503': auth('AUTH-CODE-FLOW', 'the login form is shown, but its POST answers 503'),
  'oauth-token-503': auth('AUTH-CODE-FLOW', 'the token endpoint answers 503 to every grant'),
  'auth-missing-token-accepted': auth(
    'AUTH-MISSING-TOKEN',
    "a request without a token is served as user A's",
  ),
  'auth-invalid-token-accepted': auth('AUTH-INVALID-TOKEN', "a never-issued token is served as user A's"),
  'late-first-copy-invalid-token-200': auth(
    'AUTH-INVALID-TOKEN',
    "the first read of a scope with a well-formed token the instance never issued is served as user A's (200), 12 s late (past any resend mark); the copy the client sends again meanwhile, and every later one, gets 401 (option lateFirstCopyMs)",
  ),
  'auth-expired-token-accepted': auth('AUTH-EXPIRED-TOKEN', 'an expired token is accepted'),
  'scope-unchecked-get-cycle': auth('SCOPE-READ-CYCLES', 'GET /v2/cycle/{id} does not check read:cycles'),
  'scope-unchecked-list-cycles': auth('SCOPE-READ-CYCLES', 'GET /v2/cycle does not check read:cycles'),
  'scope-unchecked-get-cycle-recovery': auth(
    'SCOPE-READ-RECOVERY',
    'GET /v2/cycle/{id}/recovery does not check read:recovery',
  ),
  'scope-unchecked-list-recoveries': auth(
    'SCOPE-READ-RECOVERY',
    'GET /v2/recovery does not check read:recovery',
  ),
  'scope-unchecked-get-sleep': auth(
    'SCOPE-READ-SLEEP',
    'GET /v2/activity/sleep/{id} does not check read:sleep',
  ),
  'scope-missing-404-get-sleep': auth(
    'SCOPE-READ-SLEEP',
    'GET /v2/activity/sleep/{id} answers a token lacking read:sleep 404, as if no sleep were found',
  ),
  'scope-unchecked-list-sleeps': auth('SCOPE-READ-SLEEP', 'GET /v2/activity/sleep does not check read:sleep'),
  'scope-unchecked-get-workout': auth(
    'SCOPE-READ-WORKOUT',
    'GET /v2/activity/workout/{id} does not check read:workout',
  ),
  'scope-unchecked-list-workouts': auth(
    'SCOPE-READ-WORKOUT',
    'GET /v2/activity/workout does not check read:workout',
  ),
  'scope-unchecked-body-measurement': auth(
    'SCOPE-READ-BODY-MEASUREMENT',
    'GET /v2/user/measurement/body does not check read:body_measurement',
  ),
  'scope-unchecked-profile': auth(
    'SCOPE-READ-PROFILE',
    'GET /v2/user/profile/basic does not check read:profile',
  ),
  'scope-stated-empty': auth(
    'SCOPE-READ-CYCLES',
    'the user token response states "scope": "" for every grant, while its tokens are served every read scope asked for (read:cycles included): the grant\'s statement and its enforcement disagree',
  ),
  'scope-required-for-revoke': auth('SCOPE-REVOKE-ANY', 'DELETE /v2/user/access requires read:profile'),
  'revoke-tokens-still-valid': auth('REVOKE-TOKENS', 'tokens keep working after DELETE /v2/user/access'),
  'revoke-answers-200-with-body': auth(
    'OP-REVOKE-ACCESS',
    'DELETE /v2/user/access answers 200 with a JSON body',
  ),
  'revoke-webhooks-continue': auth(
    'REVOKE-WEBHOOKS-STOP',
    'webhooks for a user continue after DELETE /v2/user/access',
  ),
  'webhook-signature-missing': auth(
    'WH-SIGNED',
    'user-data webhooks (to the OAuth client) are sent without the Service-Signed header',
  ),
  // ---------------------------------------------------------------- activity mapping
  'activity-mapping-wrong-id': utility('MAP-V1-TO-V2', 'the mapping returns the uuid of another record'),
  'activity-mapping-unknown-200': utility(
    'MAP-NOT-FOUND',
    'an unknown V1 id answers 200 with a made-up uuid',
  ),
  'activity-mapping-id-not-uuid': utility('SCH-ACTIVITY-MAPPING', 'v2_activity_id is the V1 integer'),
  'activity-mapping-under-v2': utility(
    'VER-PATH-VERSION',
    'the activity mapping is served at /v2/activity-mapping/{id}; /v1/activity-mapping/{id} answers 404',
  ),
  // ---------------------------------------------------------------- success statuses (faults/status.ts)
  ...userStatusFaults,
} satisfies Record<string, UserFault>;
