// TLS certificates as the run's Node process sees them: whether it trusts a server's (its CA store, with
// NODE_EXTRA_CA_CERTS), the SPKI hashes of a chain it trusts (so that the browser sign-in trusts what the run
// trusts), and the certificate named for a run error (subject, issuer, host) when it does not verify.
import { createHash, X509Certificate } from 'node:crypto';
import { connect, type DetailedPeerCertificate } from 'node:tls';

/** Node's codes of a certificate that does not verify (a private CA, a self-signed or expired one...). */
export const CERTIFICATE_ERROR =
  /\b(UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(?:_LOCALLY)?|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|CERT_UNTRUSTED|CERT_REVOKED|CERT_SIGNATURE_FAILURE|INVALID_CA|ERR_TLS_CERT_ALTNAME_INVALID)\b/;

/** What to do about a certificate the run does not trust. */
export const CERTIFICATE_REMEDY =
  "if the server's certificate comes from a private CA, give the CA's certificate (a PEM file) in NODE_EXTRA_CA_CERTS; otherwise the server's certificate is wrong";

interface Peer {
  /** Whether Node verified the chain (against its CA store and NODE_EXTRA_CA_CERTS). */
  authorized: boolean;
  error?: string;
  /** The chain, leaf first, as far as the server sent it and Node completed it. */
  chain: DetailedPeerCertificate[];
}

/** The certificate chain of the TLS server at `url`'s host, and whether Node trusts it. */
function peer(url: string): Promise<Peer> {
  const { hostname, port } = new URL(url);
  const host = hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const socket = connect({
      host,
      port: Number(port || 443),
      ...(/^[\d.]+$|:/.test(host) ? {} : { servername: host }),
      // Read even an untrusted chain: `authorized` says what Node made of it.
      rejectUnauthorized: false,
      timeout: 5_000,
    });
    socket.once('secureConnect', () => {
      const chain: DetailedPeerCertificate[] = [];
      for (
        let certificate = socket.getPeerCertificate(true);
        certificate?.raw && !chain.includes(certificate);
        certificate = certificate.issuerCertificate
      )
        chain.push(certificate);
      resolve({
        authorized: socket.authorized,
        error: socket.authorizationError?.toString(),
        chain,
      });
      socket.end();
    });
    socket.once('timeout', () => socket.destroy(new Error('no TLS handshake within 5 s')));
    socket.once('error', reject);
  });
}

const spkiHash = (certificate: DetailedPeerCertificate): string =>
  createHash('sha256')
    .update(new X509Certificate(certificate.raw).publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64');

/** The SPKI hashes (SHA-256, base64) of the chain of an https `url` that Node trusts; [] otherwise. */
export async function trustedSpkiHashes(url: string): Promise<string[]> {
  if (new URL(url).protocol !== 'https:') return [];
  const found = await peer(url).catch(() => undefined);
  return found?.authorized ? found.chain.map(spkiHash) : [];
}

const name = (fields: Record<string, string | string[] | undefined> | undefined): string =>
  Object.entries(fields ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join('+') : value}`)
    .join(', ') || 'none';

/**
 * The certificate of `url`'s server in words: host, subject, issuer, validity, and why Node refuses it
 * ("the certificate of 127.0.0.1:8443 (subject CN=…, issuer CN=…, valid until …) does not verify: …").
 */
export async function describeCertificate(url: string, reason: string): Promise<string> {
  const { host } = new URL(url);
  const found = await peer(url).catch(() => undefined);
  const [leaf] = found?.chain ?? [];
  const what = leaf
    ? ` (subject ${name(leaf.subject)}, issuer ${name(leaf.issuer)}, valid ${leaf.valid_from} to ${leaf.valid_to})`
    : '';
  return `the TLS certificate of ${host}${what} does not verify: ${found?.error ?? reason}`;
}
