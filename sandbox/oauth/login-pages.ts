// The served sign-in pages of the sandbox (option loginPage), real HTML forms with the OAuth semantics of the
// plain flow, in the shapes real authorization servers take:
//   plain       one English form that signs in and consents at once, "Allow access" then "Deny" (the default)
//   french      the same form in French, field names too, the refusal ("Refuser") before "Autoriser l'accès"
//   consent     a French login, then a separate consent page whose refusal comes first and whose allow
//               control is an icon button with only an accessible name (aria-label "Autoriser");
//               a sign-in session (cookie and CSRF token) carries the user from one to the other
//   enter-only  a form with no button at all: a person presses Enter (a script submits it then)
//   identifier-first  the e-mail alone ("Next", posted to /identity/signin/email), then the password on a
//               page of its own, then a consent page whose "Cancel" comes before "Accept"; a sign-in session
//               carries the user through them
//   checkboxes  the same first two steps, then a consent page listing the scopes asked for as checkboxes,
//               all ticked, in the form whose submit control is <input type="submit" value="Allow">: the
//               grant holds the scopes submitted (the variants checkbox-consent and checkbox-consent-unticked)
//   second-factor  the username and password, then a code sent by e-mail (GET /sandbox/mail shows it), then
//               the consent page of identifier-first: only a person signs in there
// The plain page asks for a captcha as well from sign-in captchaFromSignIn on (an option), as a server does
// that grows wary of a user signing in again and again, and of the users of option captchaFor once their
// username is posted (a server wary of one account). The variants iframe-consent and
// iframe-consent-browser sign in by username and password, then show the consent form of identifier-first
// in a same-origin <iframe> of the consent page.
// The realistic sign-in (option realisticLogin) builds its pages by script instead (sandbox/oauth/pages.ts).
import type { AuthorizationRequest } from './authorize.ts';
import { AUTHORIZE_PATH, alert, escapeHtml, hidden, page, scopeList } from './pages.ts';
import type { Fields } from './replies.ts';

export const LOGIN_PAGES = [
  'plain',
  'french',
  'consent',
  'enter-only',
  'identifier-first',
  'checkboxes',
  'second-factor',
] as const;
export type LoginPage = (typeof LOGIN_PAGES)[number];

/** A page that signs in and consents in one form. */
export interface OneStepPage {
  /** The page; with `captcha`, a captcha in the form too (the plain page's). */
  render(request: AuthorizationRequest, error?: string, captcha?: boolean): string;
  /** The username and password the form posted. */
  credentials(fields: Fields): { username: string; password: string };
  /** Whether the user refused. */
  denied(fields: Fields): boolean;
}

/** A one-step page's form: the scopes asked for, the error, then the form carrying the request's fields and `controls`. */
function oneStepForm(
  request: AuthorizationRequest,
  error: string | undefined,
  controls: readonly string[],
  asks?: string,
): string[] {
  return [
    scopeList(request, asks),
    alert(error),
    `<form method="post" action="${AUTHORIZE_PATH}">`,
    ...requestFields(request),
    ...controls,
    '</form>',
  ];
}

/** A form of a sign-in session's step: it posts the step and the session's CSRF token with `controls`. */
function stepForm(
  step: string,
  csrfToken: string,
  controls: readonly string[],
  action = AUTHORIZE_PATH,
): string[] {
  return [
    `<form method="post" action="${action}">`,
    hidden('step', step),
    hidden('csrf_token', csrfToken),
    ...controls,
    '</form>',
  ];
}

/** The authorization request's fields, carried by the one-step form. */
function requestFields(request: AuthorizationRequest): string[] {
  const pkce = request.pkce
    ? [hidden('code_challenge', request.pkce.challenge), hidden('code_challenge_method', request.pkce.method)]
    : [];
  return [
    hidden('client_id', request.client.clientId),
    hidden('redirect_uri', request.redirectUri),
    hidden('response_type', 'code'),
    hidden('scope', request.scopes.join(' ')),
    hidden('state', request.state),
    ...pkce,
  ];
}

const button = (label: string, name: string, value: string): string =>
  `<button type="submit" name="${name}" value="${value}">${escapeHtml(label)}</button>`;

/** What the captcha's picture shows: a person reads it, a program is not meant to. */
export const CAPTCHA_TEXT = 'W7XK';
const CAPTCHA_PICTURE = `data:image/svg+xml,${encodeURIComponent(
  `<svg xmlns="http://www.w3.org/2000/svg" width="90" height="30"><text x="8" y="22" font-size="20" transform="skewX(-12)">${CAPTCHA_TEXT}</text></svg>`,
)}`;

const plain: OneStepPage = {
  render: (request, error, captcha) =>
    page(
      'Sign in',
      [
        '<h1>Sign in to the Physiology Data sandbox</h1>',
        ...oneStepForm(request, error, [
          '<label>Username <input type="text" name="username" autocomplete="username"></label>',
          '<label>Password <input type="password" name="password" autocomplete="current-password"></label>',
          ...(captcha
            ? [
                `<img src="${CAPTCHA_PICTURE}" alt="">`,
                '<label>Type the characters shown <input type="text" name="captcha" autocomplete="off" required></label>',
              ]
            : []),
          button('Allow access', 'action', 'approve'),
          button('Deny', 'action', 'deny'),
        ]),
      ].join('\n'),
    ),
  credentials: (fields) => ({ username: fields.username ?? '', password: fields.password ?? '' }),
  denied: (fields) => fields.action === 'deny',
};

const french: OneStepPage = {
  render: (request, error) =>
    page(
      'Connexion',
      [
        '<h1>Connexion au bac à sable Physiology Data</h1>',
        ...oneStepForm(
          request,
          error,
          [
            '<p><label for="identifiant">Identifiant</label> <input type="text" id="identifiant" name="identifiant"></p>',
            '<p><label for="mdp">Mot de passe</label> <input type="password" id="mdp" name="mot_de_passe"></p>',
            button('Refuser', 'choix', '1'),
            button('Autoriser l’accès', 'choix', '2'),
          ],
          'demande l’accès à :',
        ),
      ].join('\n'),
      'fr',
    ),
  credentials: (fields) => ({ username: fields.identifiant ?? '', password: fields.mot_de_passe ?? '' }),
  denied: (fields) => fields.choix !== '2',
};

const SUBMIT_ON_ENTER = `document.querySelector('form').addEventListener('keydown', (event) => {
  if (event.key === 'Enter') event.currentTarget.requestSubmit();
});`;

const enterOnly: OneStepPage = {
  render: (request, error) =>
    page(
      'Sign in',
      [
        '<h1>Sign in</h1>',
        ...oneStepForm(request, error, [
          '<label>Email <input type="email" name="email" autocomplete="username"></label>',
          '<label>Password <input type="password" name="password" autocomplete="current-password"></label>',
          '<p>Press Enter to sign in and allow access.</p>',
        ]),
        // With two fields and no button, Enter submits nothing by itself (HTML implicit submission): a script does.
        `<script>${SUBMIT_ON_ENTER}</script>`,
      ].join('\n'),
    ),
  credentials: (fields) => ({ username: fields.email ?? '', password: fields.password ?? '' }),
  denied: () => false,
};

export const ONE_STEP_PAGES: Record<
  Exclude<LoginPage, 'consent' | 'identifier-first' | 'checkboxes' | 'second-factor'>,
  OneStepPage
> = {
  plain,
  french,
  'enter-only': enterOnly,
};

/** The consent variant's first page: a French login posting the sign-in session's CSRF token. */
export function frenchLoginPage(request: AuthorizationRequest, csrfToken: string, error?: string): string {
  return page(
    'Connexion',
    [
      '<h1>Connexion</h1>',
      scopeList(request, 'demande l’accès à :'),
      alert(error),
      ...stepForm('login', csrfToken, [
        '<p><label>Adresse e-mail <input type="text" name="username" autocomplete="username"></label></p>',
        '<p><label>Mot de passe <input type="password" name="password" autocomplete="current-password"></label></p>',
        '<button type="submit">Se connecter</button>',
      ]),
    ].join('\n'),
    'fr',
  );
}

/** The consent variant's second page: the refusal first, the allow control an icon with only an accessible name. */
export function iconConsentPage(request: AuthorizationRequest, csrfToken: string): string {
  return page(
    'Autorisation',
    [
      '<h1>Autoriser l’application ?</h1>',
      scopeList(request, 'demande l’accès à :'),
      ...stepForm('consent', csrfToken, [
        button('Refuser', 'choix', '1'),
        '<button type="submit" name="choix" value="2" aria-label="Autoriser"><svg aria-hidden="true" width="16" height="16" viewBox="0 0 16 16"><path d="M2 8l4 4 8-8" stroke="currentColor" fill="none"/></svg></button>',
      ]),
    ].join('\n'),
    'fr',
  );
}

/** Whether the icon consent page's submission grants (the icon button's value). */
export const iconConsentAllowed = (fields: Fields): boolean => fields.choix === '2';

/** Where the identifier-first variant's first page posts: a path of its own, as real servers have. */
export const IDENTIFY_PATH = '/identity/signin/email';

/** The identifier-first variant's first page: the e-mail alone, under a button "Next". */
export function identifierPage(request: AuthorizationRequest, csrfToken: string, error?: string): string {
  return page(
    'Sign in',
    [
      '<h1>Sign in</h1>',
      scopeList(request),
      alert(error),
      ...stepForm(
        'identify',
        csrfToken,
        [
          '<label>Email, phone or Skype <input type="email" name="loginfmt" autocomplete="username"></label>',
          '<button type="submit">Next</button>',
        ],
        IDENTIFY_PATH,
      ),
    ].join('\n'),
  );
}

/** The identifier-first variant's second page: the password of the user named on the first. */
export function passwordPage(
  _request: AuthorizationRequest,
  csrfToken: string,
  error?: string,
  username = '',
): string {
  return page(
    'Enter password',
    [
      `<h1>Enter password</h1><p>${escapeHtml(username)}</p>`,
      alert(error),
      ...stepForm('login', csrfToken, [
        '<label>Password <input type="password" name="passwd" autocomplete="current-password"></label>',
        '<button type="submit">Sign in</button>',
      ]),
    ].join('\n'),
  );
}

/** The identifier-first variant's consent page: "Cancel" before "Accept". */
export function acceptConsentPage(request: AuthorizationRequest, csrfToken: string): string {
  return page(
    'Permissions requested',
    [
      '<h1>Permissions requested</h1>',
      scopeList(request),
      ...stepForm('consent', csrfToken, [
        button('Cancel', 'consent', 'cancel'),
        button('Accept', 'consent', 'accept'),
      ]),
    ].join('\n'),
  );
}

/**
 * The checkbox consent page: one box named scope per scope asked for, ticked but for `unticked` (what the user
 * withheld), in the form whose submit control is a nameless <input type="submit" value="Allow">; a form of
 * its own denies.
 */
export const checkboxConsentPage =
  (unticked: readonly string[]) =>
  (request: AuthorizationRequest, csrfToken: string): string =>
    page(
      'Authorize application',
      [
        '<h1>Authorize application</h1>',
        `<p><strong>${escapeHtml(request.client.clientId)}</strong> would like to:</p>`,
        ...stepForm('consent', csrfToken, [
          ...request.scopes.map(
            (scope) =>
              `<p><label><input type="checkbox" name="scope" value="${escapeHtml(scope)}"${unticked.includes(scope) ? '' : ' checked'}> ${escapeHtml(scope)}</label></p>`,
          ),
          '<input type="submit" value="Allow">',
        ]),
        ...stepForm('consent', csrfToken, [hidden('decision', 'deny'), '<input type="submit" value="Deny">']),
      ].join('\n'),
    );

/** Where the framed consent page's frame loads its form from (the sign-in session's cookie names it). */
export const CONSENT_FRAME_PATH = '/oauth/oauth2/consent-frame';

/**
 * The iframe-consent variants' consent page: the scopes, and the consent form in a same-origin frame (the
 * page itself has no form and no button), as an authorization server that embeds its consent widget.
 */
export function framedConsentPage(request: AuthorizationRequest): string {
  return page(
    'Permissions requested',
    [
      '<h1>Permissions requested</h1>',
      scopeList(request),
      `<iframe src="${CONSENT_FRAME_PATH}" title="Allow access" width="420" height="160"></iframe>`,
    ].join('\n'),
  );
}

/** The second-factor variant's first page: username and password, in English. */
export function passwordLoginPage(request: AuthorizationRequest, csrfToken: string, error?: string): string {
  return page(
    'Sign in',
    [
      '<h1>Sign in</h1>',
      scopeList(request),
      alert(error),
      ...stepForm('login', csrfToken, [
        '<label>Email <input type="email" name="username" autocomplete="username"></label>',
        '<label>Password <input type="password" name="password" autocomplete="current-password"></label>',
        '<button type="submit">Sign in</button>',
      ]),
    ].join('\n'),
  );
}

/** The second-factor variant's second page: the code the user was sent by e-mail. */
export function codePage(_request: AuthorizationRequest, csrfToken: string, error?: string): string {
  return page(
    'Check your e-mail',
    [
      '<h1>Check your e-mail</h1>',
      '<p>We sent a six-digit code to your address.</p>',
      alert(error),
      ...stepForm('code', csrfToken, [
        '<label>Code <input type="text" name="code" inputmode="numeric" autocomplete="one-time-code"></label>',
        '<button type="submit">Verify</button>',
      ]),
    ].join('\n'),
  );
}
