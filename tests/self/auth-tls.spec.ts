// A staging server behind a private CA: the sandbox serves HTTPS with a certificate issued, at test time, by
// a CA of its own (openssl). Without NODE_EXTRA_CA_CERTS the run ends ERROR in seconds, naming the
// certificate (subject, issuer, host) and NODE_EXTRA_CA_CERTS, never "check CONFORMANCE_BASE_URL"; with it,
// the run signs in on a login page built by script (the browser trusts what the run's Node trusts) and ends
// with 0 failures, with no other setting.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { RunningSandbox } from '../../sandbox/app.ts';
import { cliRun } from './auth-attribution-support.ts';
import { needsChromium } from './chromium.ts';
import { start } from './sandbox-client.ts';

test.describe.configure({ mode: 'default' });

const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** A private CA and a certificate it issued for 127.0.0.1, made now: the CA's PEM file, the server's key and certificate. */
function privateCa(): { caFile: string; key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-ca-'));
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  const key = ['-newkey', 'rsa:2048', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...key,
    '-keyout',
    at('ca.key'),
    '-out',
    at('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=Staging Private CA',
  );
  openssl('req', ...key, '-keyout', at('server.key'), '-out', at('server.csr'), '-subj', '/CN=127.0.0.1');
  writeFileSync(
    at('server.ext'),
    'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
  );
  openssl(
    'x509',
    '-req',
    '-in',
    at('server.csr'),
    '-CA',
    at('ca.pem'),
    '-CAkey',
    at('ca.key'),
    '-CAcreateserial',
    '-out',
    at('server.pem'),
    '-days',
    '2',
    '-extfile',
    at('server.ext'),
  );
  return {
    caFile: at('ca.pem'),
    key: readFileSync(at('server.key'), 'utf8'),
    cert: readFileSync(at('server.pem'), 'utf8'),
  };
}

let ca: { caFile: string; key: string; cert: string };
let sandbox: RunningSandbox;
test.beforeAll(async () => {
  test.skip(!hasOpenssl, 'no openssl to make a private CA');
  ca = privateCa();
  sandbox = await start({ realisticLogin: true, tls: { key: ca.key, cert: ca.cert } });
});
test.afterAll(async () => sandbox?.close());

test('a private CA not given to the run: ERROR in seconds, naming the certificate and NODE_EXTRA_CA_CERTS', async () => {
  const run = await cliRun(sandbox, { CONFORMANCE_GREP: '@PAG-LIMIT-DEFAULT' });
  expect(run.code, run.output.slice(-3000)).toBe(4);
  expect(run.report.verdict).toBe('error');
  expect(run.report.totals.failed).toBe(0);
  expect(run.report.runError?.kind).toBe('certificate');
  expect(run.report.runError?.cause).toMatch(
    /the TLS certificate of 127\.0\.0\.1:\d+ \(subject CN=127\.0\.0\.1, issuer CN=Staging Private CA, valid .*\) does not verify: UNABLE_TO_VERIFY_LEAF_SIGNATURE/,
  );
  expect(run.report.runError?.remedy).toMatch(/NODE_EXTRA_CA_CERTS/);
});

test('the private CA in NODE_EXTRA_CA_CERTS: the browser signs in on a page built by script, 0 failures', async () => {
  needsChromium();
  const run = await cliRun(sandbox, {
    CONFORMANCE_GREP: '@PAG-LIMIT-DEFAULT|@AUTH-CODE-FLOW',
    NODE_EXTRA_CA_CERTS: ca.caFile,
  });
  // A narrowed run is never PASS: INCOMPLETE, and what it ran passed.
  expect(run.code, run.output.slice(-3000)).toBe(3);
  expect(run.report.verdict).toBe('incomplete');
  expect(run.report.totals.failed).toBe(0);
  for (const id of ['PAG-LIMIT-DEFAULT', 'AUTH-CODE-FLOW'])
    expect(run.report.requirements.find((r) => r.id === id)?.status, id).toBe('pass');
});
