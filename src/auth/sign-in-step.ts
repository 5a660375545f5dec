// What to do on one page of a sign-in, decided the same way by the HTTP form filler and the browser: fill a
// login form (username by autocomplete, type, label or place, and password) or the first page of an
// identifier-first login, submitted as Enter does; else press the affirmative control (./consent-words.ts),
// never a refusal; a page asking for what no configuration holds needs a person; one with nothing to do is
// stuck, unless its scripts may still build a form. The rules in full: docs/sign-in.md, "Login".
import { decisionOf } from './consent-words.ts';
import { type FormSubmission, formSubmission } from './form-data.ts';
import { type Control, type HtmlForm, type HtmlPage, isButton, isSubmit } from './html-form.ts';

export type SignInStep =
  | {
      kind: 'login';
      form: HtmlForm;
      username?: Control;
      /** Undefined on the first page of an identifier-first login, which asks for the username alone. */
      password?: Control;
      /** The button to press; undefined: submitted without one (a form with no button). */
      submit?: Control;
      /** Whether pressing Enter in the password field submits it this way (the form's default button). */
      byEnter: boolean;
    }
  /** Press this control (of `form`, or a button outside forms a script handles). */
  | { kind: 'press'; control: Control; form?: HtmlForm }
  /** No control yet, but scripts run: the page may build its form (a browser waits for it). */
  | { kind: 'scripted' }
  /** The page asks for what no configuration holds (a captcha, a second factor): a person must go on. */
  | { kind: 'person'; reason: string }
  | { kind: 'stuck'; reason: string };

const TEXTUAL = new Set(['text', 'email', 'tel', 'number', 'search', 'url']);
/** Username in the labels and names of the common languages (user, e-mail, identifiant, Benutzer, usuario...). */
const USERNAME_WORDS =
  /user|e-?mail|login|account|ident|utilisat|courriel|benutzer|nutzer|anmelde|usuari|correo|utente|gebruiker/i;

const fieldsOf = (form: HtmlForm): Control[] =>
  form.controls.filter((control) => control.submitted && !isButton(control));

const autocompletes = (control: Control, token: string): boolean =>
  (control.autocomplete ?? '').toLowerCase().split(/\s+/).includes(token);

/** A field asking for a one-time code or a captcha: by autocomplete, label or name. */
const CODE_WORDS = /captcha|one.?time|\botp\b|\bcode\b|verification|\b[23]fa\b|\bmfa\b|\bpin\b/i;
const asksForCode = (control: Control): boolean =>
  autocompletes(control, 'one-time-code') || CODE_WORDS.test(`${control.label} ${control.name ?? ''}`);

/** The field of a form that plainly asks for a username: by autocomplete, type email, label or name. */
function namedUsernameField(form: HtmlForm): Control | undefined {
  const textual = fieldsOf(form).filter((control) => TEXTUAL.has(control.type) && !asksForCode(control));
  return (
    textual.find((control) => autocompletes(control, 'username') || autocompletes(control, 'email')) ??
    textual.find((control) => control.type === 'email') ??
    textual.find((control) => USERNAME_WORDS.test(`${control.label} ${control.name ?? ''}`))
  );
}

/** The username field of a login form: a named one, else the only text field, else the one before the password. */
function usernameField(form: HtmlForm, password: Control): Control | undefined {
  const textual = fieldsOf(form).filter((control) => TEXTUAL.has(control.type));
  return (
    namedUsernameField(form) ??
    (textual.length === 1 ? textual[0] : textual.filter((control) => control.index < password.index).at(-1))
  );
}

/** The username field of a form that asks for nothing else (identifier-first), if it is one. */
function identifierField(form: HtmlForm): Control | undefined {
  const username = namedUsernameField(form);
  const empty = fieldsOf(form).filter((control) => TEXTUAL.has(control.type) && control.value === '');
  return username?.value === '' && empty.every((control) => control === username) ? username : undefined;
}

/** What a control's own words mean. */
const meaning = (control: Control) => decisionOf([control.name, control.value, control.label]);

/** What a form's hidden fields say (e.g. user_oauth_approval=true, consent=deny). */
const formMeaning = (form: HtmlForm) =>
  decisionOf(form.controls.filter((control) => control.type === 'hidden').flatMap((c) => [c.name, c.value]));

/** What a person must give there: the reason a step needs one. */
const personAsked = (field: Control): SignInStep => ({
  kind: 'person',
  reason: `the page asks for ${JSON.stringify(field.label || field.name)}, which no configuration holds (a captcha? a second factor?)`,
});

/** An empty field, other than the username, that the form cannot go without, or a code: only a person has it. */
const unheldField = (form: HtmlForm, username?: Control): Control | undefined =>
  fieldsOf(form).find(
    (control) =>
      TEXTUAL.has(control.type) &&
      control.value === '' &&
      control !== username &&
      (control.required || asksForCode(control)),
  );

function login(form: HtmlForm, fields: { username?: Control; password?: Control }): SignInStep {
  const unheld = unheldField(form, fields.username);
  if (unheld) return personAsked(unheld);
  const submits = form.controls.filter(isSubmit);
  const submit =
    submits.find((control) => meaning(control) === 'allow') ??
    submits.find((control) => meaning(control) !== 'deny');
  if (submits.length > 0 && !submit)
    return { kind: 'stuck', reason: 'the login form offers only buttons that refuse' };
  return { kind: 'login', form, ...fields, submit, byEnter: submit === submits[0] };
}

/** The step for `page` (its forms and buttons as parsed by src/auth/html-form.ts). */
export function signInStep(page: HtmlPage): SignInStep {
  for (const form of page.forms) {
    const password = form.controls.find((control) => control.type === 'password' && control.submitted);
    if (password) return login(form, { username: usernameField(form, password), password });
  }
  for (const form of page.forms) {
    const username = identifierField(form);
    if (username) return login(form, { username });
  }
  const unheld = page.forms.map((form) => unheldField(form)).find(Boolean);
  if (unheld) return personAsked(unheld);
  const candidates = [
    ...page.forms.flatMap((form) =>
      form.controls
        .filter(isSubmit)
        .map((control) => ({ control, form, says: meaning(control) ?? formMeaning(form) })),
    ),
    ...page.buttons.map((control) => ({ control, form: undefined, says: meaning(control) })),
  ];
  if (candidates.length === 0)
    return page.scripted
      ? { kind: 'scripted' }
      : { kind: 'stuck', reason: 'the page offers no form and no button' };
  const lone = candidates.length === 1 && candidates[0]?.says === undefined ? candidates[0] : undefined;
  const chosen = candidates.find((candidate) => candidate.says === 'allow') ?? lone;
  if (!chosen)
    return {
      kind: 'stuck',
      reason: 'no control means allow, and the sign-in never presses one that refuses or cancels',
    };
  const asked = chosen.form && fieldsOf(chosen.form).find((c) => TEXTUAL.has(c.type) && c.value === '');
  if (asked) return personAsked(asked);
  return { kind: 'press', control: chosen.control, form: chosen.form };
}

/**
 * What a form filler sends for a step, as a browser would (src/auth/form-data.ts): the form's data set with
 * the credentials in their fields, submitted by the pressed button (a login by Enter: its default button).
 */
export function submission(
  step: Extract<SignInStep, { kind: 'login' | 'press' }> & { form: HtmlForm },
  account: { username: string; password: string },
): FormSubmission {
  if (step.kind === 'press') return formSubmission(step.form, step.control);
  const filled = new Map<Control, string>();
  if (step.username) filled.set(step.username, account.username);
  if (step.password) filled.set(step.password, account.password);
  return formSubmission(step.form, step.submit, filled);
}
