// The form filler submits a form as a browser does (src/auth/form-data.ts): checked boxes and repeated names
// in order, the selected options of a select, a textarea's text, the pressed submitter's own name and value,
// and nothing disabled or unchecked. Read from real HTML, and then compared with what Chromium itself posts
// for the same page, pressing the same control.
import { createServer, type Server } from 'node:http';
import { expect, test } from '@playwright/test';
import { authorizationRequest } from '../../src/auth/authorization-request.ts';
import { BrowserSignIn } from '../../src/auth/browser-sign-in.ts';
import { formData, formSubmission } from '../../src/auth/form-data.ts';
import { formSignIn } from '../../src/auth/form-sign-in.ts';
import { type HtmlForm, parsePage } from '../../src/auth/html-form.ts';
import { formBody } from '../../src/http/form-body.ts';
import { standaloneClient } from '../../src/http/standalone-client.ts';
import { nodeTransport } from '../../src/http/transport.ts';
import { needsChromium } from './chromium.ts';

/** A consent form with every kind of control, its Allow an `<input type="submit">` with a name. */
const CONSENT_FORM = `
<form id="consent" method="post" action="/grant">
  <input type="hidden" name="csrf" value="t0k3n">
  <input type="hidden" name="_charset_">
  <label><input type="checkbox" name="scope" value="read:cycles" checked> cycles</label>
  <label><input type="checkbox" name="scope" value="read:sleep" checked> sleep</label>
  <label><input type="checkbox" name="scope" value="read:workout"> workouts (unticked)</label>
  <label><input type="checkbox" name="scope" value="read:profile" checked> profile</label>
  <label><input type="checkbox" name="remember" checked> remember (no value)</label>
  <input type="radio" name="lifetime" value="day"><input type="radio" name="lifetime" value="week" checked>
  <select name="region"><option value="eu">EU</option><option value="us">US</option></select>
  <select name="device" multiple>
    <option selected>  strap   4.0 </option><option value="ring" selected>Ring</option>
    <option value="scale" selected disabled>Scale</option>
    <optgroup label="old" disabled><option value="band" selected>Band</option></optgroup>
  </select>
  <textarea name="note">line one
line two</textarea>
  <input name="nickname" value="a b&amp;c" dirname="nickname.dir">
  <input name="gone" value="x" disabled>
  <fieldset disabled><legend><input name="in-legend" value="kept"></legend><input name="in-fieldset" value="dropped"></fieldset>
  <input type="image" name="map" alt="map">
  <input type="reset" name="reset" value="Reset"><input type="button" name="plain" value="Plain">
  <button type="submit" name="decision" value="deny">Deny</button>
  <input type="submit" name="decision" value="Allow">
</form>
<input form="consent" type="checkbox" name="scope" value="read:recovery" checked>
<input form="elsewhere" name="stray" value="not this form's">`;

const expected: [string, string][] = [
  ['csrf', 't0k3n'],
  ['_charset_', 'UTF-8'],
  ['scope', 'read:cycles'],
  ['scope', 'read:sleep'],
  ['scope', 'read:profile'],
  ['remember', 'on'],
  ['lifetime', 'week'],
  ['region', 'eu'],
  ['device', 'strap 4.0'],
  ['device', 'ring'],
  ['note', 'line one\r\nline two'],
  ['nickname', 'a b&c'],
  ['nickname.dir', 'ltr'],
  ['in-legend', 'kept'],
  ['decision', 'Allow'],
  ['scope', 'read:recovery'],
];

const page = (body: string) =>
  parsePage(
    `<!doctype html><html><head><title>Consent</title></head><body>${body}</body></html>`,
    'http://t.test/consent',
  );

const onlyForm = (body: string): HtmlForm => {
  const [form] = page(body).forms;
  if (!form) throw new Error('no form');
  return form;
};

const pressed = (form: HtmlForm, value: string) => {
  const control = form.controls.find((candidate) => candidate.value === value);
  if (!control) throw new Error(`no control ${value}`);
  return control;
};

test('the data set of a form pressed by its Allow: boxes, repeated names, selects, textarea, the submitter', () => {
  const form = onlyForm(CONSENT_FORM);
  expect(formData(form, pressed(form, 'Allow'))).toEqual(expected);
  // Without a submitter, no button's name and value; an image button pressed gives its x and y.
  expect(formData(form)).toEqual(expected.filter(([name]) => name !== 'decision'));
  expect(
    formData(
      form,
      form.controls.find((control) => control.type === 'image'),
    ),
  ).toContainEqual(['map.x', '0']);
});

test('a GET form replaces its action query; a submitter formaction and formmethod override the form', () => {
  const get = onlyForm(
    '<form action="/next?old=1"><input name="q" value="x y"><input type="checkbox" name="q" value="z" checked><button>Go</button></form>',
  );
  expect(formSubmission(get, pressed(get, ''))).toEqual({
    method: 'GET',
    url: 'http://t.test/next?q=x+y&q=z',
  });
  const overridden = onlyForm(
    '<form method="get" action="/a"><input name="k" value="v"><button formaction="/b" formmethod="post" name="go" value="1">Go</button></form>',
  );
  expect(formSubmission(overridden, pressed(overridden, '1'))).toEqual({
    method: 'POST',
    url: 'http://t.test/b',
    body: [
      ['k', 'v'],
      ['go', '1'],
    ],
  });
  // A select with nothing selected shows (and submits) its first enabled option; a single select, its last selected.
  const selects = onlyForm(
    '<form><select name="a"><option disabled>x</option><option>y</option></select><select name="b"><option selected>1</option><option selected>2</option></select></form>',
  );
  expect(formData(selects)).toEqual([
    ['a', 'y'],
    ['b', '2'],
  ]);
  expect(formBody(formData(selects))).toBe('a=y&b=2');
  expect(formBody({ one: 'a b' })).toBe('one=a+b');
});

/** A target serving `html` at /consent that records the requests to /grant and then redirects with a code. */
async function consentTarget(html: string) {
  const posted: { method: string; url: string; body: string }[] = [];
  let state = '';
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    state = url.searchParams.get('state') ?? state;
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      if (url.pathname === '/grant') {
        posted.push({ method: request.method ?? '', url: request.url ?? '', body });
        response.writeHead(302, { location: `/cb?code=the-code&state=${state}` });
      } else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(url.pathname === '/consent' ? html : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const request = () => {
    const made = authorizationRequest(
      origin,
      { clientId: 'c', redirectUri: `${origin}/cb` },
      'read:cycles',
      false,
    );
    return { ...made, url: made.url.replace('/oauth/oauth2/auth', '/consent') };
  };
  const account = { username: 'u', password: 'p', redirectUri: `${origin}/cb` };
  return { posted, request, account, close: () => new Promise((resolve) => server.close(resolve)) };
}

const CONSENT_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Consent</title></head><body>${CONSENT_FORM}</body></html>`;

test('the form filler posts what Chromium posts for the same consent page, pressing the same control', async () => {
  const target = await consentTarget(CONSENT_PAGE);
  const transport = nodeTransport();
  try {
    const api = standaloneClient(transport, { baseUrl: 'http://unused.test' });
    await expect(formSignIn(api)(target.request(), target.account)).resolves.toEqual({ code: 'the-code' });
    const [filler] = target.posted;
    expect(filler?.method).toBe('POST');
    expect([...new URLSearchParams(filler?.body)]).toEqual(expected);
    needsChromium();
    const browser = new BrowserSignIn();
    try {
      await expect(browser.codeSource(target.request(), target.account)).resolves.toEqual({
        code: 'the-code',
      });
    } finally {
      await browser.close();
    }
    const [, chromium] = target.posted;
    console.log(
      `the consent page's POST body, form filler and Chromium:\n  ${filler?.body}\n  ${chromium?.body}`,
    );
    expect(chromium?.body).toBe(filler?.body);
  } finally {
    transport.dispose();
    await target.close();
  }
});
