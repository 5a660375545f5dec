// What stops a run from judging the target on the suite's or the user's side (verdict ERROR, README): an
// error of global setup or of the preflight (src/runner/run/preflight.ts), and a test's error that is not the
// target's doing. A check that meets one stops with an `error` finding (src/worker/suite/ending-recorder.ts
// stoppedByRunError); an error that escaped a test untyped is read in the worker, from the error itself: its
// class (src/auth/sign-in-errors.ts), or a transport failure's code. Any other
// error no check raised is the suite's own (a TypeError, a test timeout, an assertion outside the verdicts).
import { readFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import { CHROMIUM_REMEDY } from '../config/chromium.ts';
import { ConfigError } from '../config/config-error.ts';
import { layerOf, type VariableLayer } from '../config/environment.ts';
import { CERTIFICATE_ERROR, CERTIFICATE_REMEDY } from '../http/certificate.ts';
import { redactText } from '../http/redact.ts';
import { TransportFailure } from '../http/transport-failure.ts';
import type { RunError } from '../run-state/run-error.ts';
import { messageOf } from '../text/error-message.ts';

const SIGN_IN_REMEDY =
  'the sign-in could not find its way through the login pages: try CONFORMANCE_SIGN_IN=browser, or `npm run login` and CONFORMANCE_TOKEN_STORE';

/** The sign-in's error classes (src/auth/) whose errors are the user's side: by name, across processes. */
const SIGN_IN_ERRORS: Readonly<Record<string, Omit<RunError, 'cause'>>> = {
  SignInAutomationError: { kind: 'sign-in', remedy: SIGN_IN_REMEDY },
  // Its own name (a subclass): the browser lost its way, so a browser is no remedy.
  BrowserSignInStuck: {
    kind: 'sign-in',
    remedy:
      'the browser sign-in could not find its way through the login pages (the screenshot shows where): a person signs the users in once, `physiology-conformance login --headed`, and the run takes its token store (CONFORMANCE_TOKEN_STORE)',
  },
  // Its own name (a subclass): the form filler met a page built by script, with CONFORMANCE_SIGN_IN=form.
  PageBuiltByScript: {
    kind: 'sign-in',
    remedy:
      'the login page is built by script: CONFORMANCE_SIGN_IN=auto or browser (with Chromium) signs in there',
  },
  CredentialsRefused: {
    kind: 'credentials',
    remedy:
      'check CONFORMANCE_USER and CONFORMANCE_PASSWORD (and CONFORMANCE_CLIENT_ID, CONFORMANCE_CLIENT_SECRET)',
  },
  BrowserUnavailable: { kind: 'browser', remedy: CHROMIUM_REMEDY },
  BrowserCrashed: { kind: 'browser', remedy: CHROMIUM_REMEDY },
  PersonNeeded: {
    kind: 'person',
    remedy:
      'a person signs in: `physiology-conformance login --headed` just before the run keeps a fresh grant in CONFORMANCE_TOKEN_STORE (a check that revokes a grant, or tests the sign-in itself, spends one)',
  },
  SignInRefused: {
    kind: 'sign-in-refused',
    remedy:
      'check CONFORMANCE_AUTH_URL, CONFORMANCE_CLIENT_ID and CONFORMANCE_REDIRECT_URI against the server; if they are right, the server refuses its own authorization endpoint',
  },
  AuthorizationRequestRefused: {
    kind: 'sign-in-refused',
    remedy:
      'check the authorization request against the server (its error_description names the parameter): CONFORMANCE_CLIENT_ID, CONFORMANCE_REDIRECT_URI, CONFORMANCE_OFFLINE_SCOPE, CONFORMANCE_PKCE (PKCE S256 is sent unless it is 0); if they are right, the server refuses a request it should accept',
  },
  CertificateUntrusted: { kind: 'certificate', remedy: CERTIFICATE_REMEDY },
};

/** The run error of a thrown sign-in error that is the user's side, or undefined for any other error. */
export function signInRunError(error: unknown): RunError | undefined {
  if (!(error instanceof Error) || !Object.hasOwn(SIGN_IN_ERRORS, error.name)) return undefined;
  // Its cause: the whole message on one line, with what the page showed and where its screenshot is.
  return { ...SIGN_IN_ERRORS[error.name], cause: redactText(error.message.replace(/\s*\n\s*/g, ' ')).trim() };
}

/** Node's codes of a target that cannot be reached: refused, or a host that does not resolve or route. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * The run error an error that ended a test shows (the worker reads it from the error itself,
 * src/worker/suite/ending-recorder.ts), or undefined when it is none. A target that cannot be reached is one only
 * where it answered nothing in the whole run: the reporter charges it to a target that did.
 */
export function runErrorOf(error: unknown): RunError | undefined {
  const signIn = signInRunError(error);
  if (signIn || !(error instanceof Error)) return signIn;
  if (!(error instanceof TransportFailure) || error.code === undefined) return undefined;
  const line = firstLine(`${error.name}: ${error.message}`);
  if (CERTIFICATE_ERROR.test(error.code))
    return { kind: 'certificate', cause: line, remedy: CERTIFICATE_REMEDY };
  return UNREACHABLE_CODES.has(error.code) ? unreachable(error.reason, 'CONFORMANCE_BASE_URL') : undefined;
}

const SUITE_REMEDY = "report it to the suite's maintainers, with reports/ and the console output";

/** A test's error as Playwright serialises it. */
export interface TestError {
  message?: string;
  stack?: string;
  value?: string;
}

/** An error as Playwright serialises it (its text, its stack), from the object. */
export const testErrorOf = (error: unknown): TestError =>
  error instanceof Error
    ? { message: `${error.name}: ${error.message}`, ...(error.stack ? { stack: error.stack } : {}) }
    : { value: String(error) };

/** An error of the suite's own code in the test `title` (its first line, and its stack, redacted). */
export const suiteError = (title: string, error: TestError): RunError => ({
  kind: 'suite',
  cause: `the suite's own code failed in "${title}": ${firstLine(error.message ?? error.value ?? 'an error without a message')}`,
  remedy: SUITE_REMEDY,
  ...(error.stack ? { stack: redactText(stripVTControlCharacters(error.stack)) } : {}),
});

/** The target (or its authorization server, `variable`) answered no request. */
export const unreachable = (reason: string, variable: string): RunError => ({
  kind: 'unreachable',
  cause: `the target cannot be reached: ${firstLine(reason)}`,
  remedy: `check ${variable}`,
});

// Playwright colours its own messages (a test timeout's): a report's text carries none of the terminal's codes.
const firstLine = (text: string): string =>
  redactText(stripVTControlCharacters(text).split('\n')[0] ?? '').trim();

/** Where a variable got its value: "set in the environment", or the file of variables and the line. */
export function sourceOf(variable: string, layers: readonly VariableLayer[]): string {
  const layer = layerOf(layers, variable);
  if (!layer) return 'not set';
  if (layer.computed) return 'set by the run';
  if (!layer.file) return 'set in the environment';
  const line = readFileSync(layer.file, 'utf8')
    .split('\n')
    .findIndex((text) => new RegExp(`^\\s*(?:export\\s+)?${variable}\\s*=`).test(text));
  return `set in ${layer.file}${line < 0 ? '' : `, line ${line + 1}`}`;
}

/** A configuration error as a run error: the variable, the problem, and where the variable was set. */
export const configurationError = (error: ConfigError, layers: readonly VariableLayer[]): RunError => ({
  kind: 'configuration',
  cause: redactText(error.source ? error.message : `${error.message} (${sourceOf(error.variable, layers)})`),
  remedy: `correct ${error.variable}`,
});

/** An error of global setup as a run error: the configuration, a local port in use, or the suite's own crash. */
export function setupRunError(error: unknown, layers: readonly VariableLayer[]): RunError {
  if (error instanceof ConfigError) return configurationError(error, layers);
  const signIn = signInRunError(error);
  if (signIn) return signIn;
  const message = redactText(messageOf(error));
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
    return {
      kind: 'port',
      cause: `a local port is in use: ${message}`,
      remedy: 'free the port, or choose another (e.g. CONFORMANCE_WEBHOOK_LISTEN)',
    };
  return {
    kind: 'suite',
    cause: `the suite crashed in its setup: ${firstLine(message)}`,
    remedy: SUITE_REMEDY,
  };
}
