import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { deliveryBody, type OutboundDelivery } from '../transport/webhook-transport';
import { deliveryHeaders } from './delivery-headers';
import { isSigningSecret } from './signing-secret';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

function delivery(secrets: string[], attemptedAt = new Date()): OutboundDelivery {
  return {
    tenantId: 'tenant-1',
    subscriptionId: 'sub-1',
    deliveryId: 'dlv-1',
    eventId: 'evt-1',
    eventType: 'case.created',
    callbackUrl: 'https://example.test/hook',
    payload: { caseId: 'c-1', title: 'Ünïcödé ✓' },
    secrets,
    attemptedAt,
  };
}

describe('deliveryHeaders', () => {
  it('names the event, delivery and subscription, and stamps the attempt time in ISO 8601 UTC and unix seconds', () => {
    const d = delivery([newSecret()], new Date('2026-11-27T10:00:00.000Z'));
    const headers = deliveryHeaders(d, deliveryBody(d));
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'legal-platform-webhooks/1',
      'x-webhook-timestamp': '2026-11-27T10:00:00.000Z',
      'x-webhook-event': 'case.created',
      'x-webhook-delivery-id': 'dlv-1',
      'x-webhook-subscription-id': 'sub-1',
      'webhook-id': 'dlv-1',
      'webhook-timestamp': String(Date.parse('2026-11-27T10:00:00.000Z') / 1000),
    });
  });

  it('signs X-Webhook-Signature as hex HMAC-SHA256 of "{timestamp}.{body}" keyed with the whole secret string', () => {
    const secret = newSecret();
    const d = delivery([secret]);
    const body = deliveryBody(d);
    const headers = deliveryHeaders(d, body);
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${headers['x-webhook-timestamp']}.${body}`, 'utf8').digest('hex');
    expect(headers['x-webhook-signature']).toBe(`sha256=${expected}`);
  });

  it('passes standardwebhooks verification with each of two secrets, current first in both headers', () => {
    const [current, previous] = [newSecret(), newSecret()];
    const d = delivery([current, previous]);
    const body = deliveryBody(d);
    const headers = deliveryHeaders(d, body);

    for (const secret of [current, previous]) expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=* v1,[A-Za-z0-9+/]+=*$/);
    const plain = headers['x-webhook-signature'].split(',');
    const hmac = (secret: string) => `sha256=${createHmac('sha256', secret).update(`${headers['x-webhook-timestamp']}.${body}`).digest('hex')}`;
    expect(plain).toEqual([hmac(current), hmac(previous)]);
  });

  it('fails both verifications when the body changes, and with a secret that did not sign', () => {
    const secret = newSecret();
    const d = delivery([secret]);
    const body = deliveryBody(d);
    const headers = deliveryHeaders(d, body);
    const tampered = body.replace('c-1', 'c-2');

    expect(() => new Webhook(secret).verify(tampered, headers)).toThrow();
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
    const recomputed = createHmac('sha256', secret).update(`${headers['x-webhook-timestamp']}.${tampered}`).digest('hex');
    expect(headers['x-webhook-signature']).not.toBe(`sha256=${recomputed}`);
  });
});

describe('isSigningSecret', () => {
  it.each([
    ['whsec_ and 32 bytes', newSecret(), true],
    ['31 bytes', `whsec_${randomBytes(31).toString('base64')}`, false],
    ['33 bytes', `whsec_${randomBytes(33).toString('base64')}`, false],
    ['no prefix', randomBytes(32).toString('base64'), false],
    ['base64url without padding', `whsec_${randomBytes(32).toString('base64url')}`, false],
    ['empty', '', false],
  ])('%s', (_label, value, expected) => {
    expect(isSigningSecret(value)).toBe(expected);
  });
});
