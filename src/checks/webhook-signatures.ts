// Webhook deliveries judged under a signature scheme, as data: those without the scheme's header, and those
// whose signature departs from the scheme under a secret (one that does not verify, with a hint when the
// other encoding does; one that still verifies for a tampered body). Each problem names its delivery.
import { type Delivery, deliveryHeader } from '../http/webhook-receiver.ts';
import { type SignatureScheme, type SignedRequest, signatureProblem } from '../http/webhook-signature.ts';

const signedRequest = (delivery: Delivery, body = delivery.body): SignedRequest => ({
  header: (name) => deliveryHeader(delivery, name),
  body,
});

const what = (delivery: Delivery, index: number) =>
  `webhook ${index + 1} (${delivery.method}, ${delivery.body.length} bytes)`;

/** Deliveries without the scheme's signature header: problems of WH-SIGNED whatever the scheme. */
export const unsignedProblems = (deliveries: readonly Delivery[], scheme: SignatureScheme): string[] =>
  deliveries.flatMap((delivery, index) =>
    deliveryHeader(delivery, scheme.header) === undefined
      ? [`${what(delivery, index)} has no ${scheme.header} header`]
      : [],
  );

/**
 * Where signed deliveries depart from the scheme under `secret`: a signature that does not verify (with a
 * hint when the other encoding verifies), or one that still verifies for a tampered body.
 */
export function signatureDepartures(
  deliveries: readonly Delivery[],
  secret: string,
  scheme: SignatureScheme,
): string[] {
  const other: SignatureScheme = { ...scheme, encoding: scheme.encoding === 'hex' ? 'base64' : 'hex' };
  return deliveries.flatMap((delivery, index) => {
    if (deliveryHeader(delivery, scheme.header) === undefined) return [];
    const problem = signatureProblem(signedRequest(delivery), secret, scheme);
    if (problem !== undefined) {
      const hint = signatureProblem(signedRequest(delivery), secret, other)
        ? ''
        : ` (it is the ${other.encoding} one)`;
      return [`${what(delivery, index)}: ${problem} under the signing secret${hint}`];
    }
    const tampered = Buffer.concat([delivery.body, Buffer.from(' ')]);
    return signatureProblem(signedRequest(delivery, tampered), secret, scheme) === undefined
      ? [`${what(delivery, index)}: the signature still verifies for a tampered body`]
      : [];
  });
}
