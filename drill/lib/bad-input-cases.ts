import { createHmac } from 'node:crypto';
import { signedSlashCommand } from '@firebreak/testing';

/** One bad request and the error answer it must get (docs/api.md#errors, docs/api.md#requests). */
export interface BadInputCase {
  name: string;
  path: string;
  body: string;
  headers: Record<string, string>;
  status: number;
  code: string;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const generic = '/api/v1/webhooks/generic';
const alert = (extra: Record<string, unknown> = {}) => ({
  title: 'Bad input drill',
  severity: 'critical',
  ...extra,
});
const alerts = (...items: unknown[]) => JSON.stringify({ alerts: items });

function nested(depth: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = { next: value };
  return value;
}

/** The generic webhook's requests (sent while no signing secret is set). */
export function unsignedCases(): BadInputCase[] {
  const webhook = (
    name: string,
    body: string,
    status: number,
    code: string,
    headers: Record<string, string> = JSON_TYPE,
  ) => ({
    name,
    path: generic,
    body,
    headers,
    status,
    code,
  });
  return [
    webhook('malformed JSON', '{"alerts": [{"title": "x",', 400, 'invalid_json'),
    webhook('empty body', '', 400, 'invalid_json'),
    webhook('JSON that is not an object', '[1, 2, 3]', 400, 'validation_failed'),
    webhook('text/plain body', alerts(alert()), 415, 'unsupported_media_type', {
      'content-type': 'text/plain',
    }),
    webhook('form-encoded body', 'title=x', 415, 'unsupported_media_type', {
      'content-type': 'application/x-www-form-urlencoded',
    }),
    webhook('no content type', alerts(alert()), 415, 'unsupported_media_type', {}),
    webhook(
      'body over 1 MiB',
      alerts(alert({ description: 'x'.repeat(1024 * 1024 + 1) })),
      413,
      'payload_too_large',
    ),
    webhook('labels nested 1 000 deep', alerts(alert({ labels: nested(1000) })), 400, 'validation_failed'),
    // Valid JSON no request can be: refused before parsing goes deep (http/src/json.ts, 64 levels).
    webhook(
      'JSON nested 100 000 deep',
      `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
      400,
      'validation_failed',
    ),
    webhook(
      '10 000 labels',
      alerts(
        alert({ labels: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, `v${i}`])) }),
      ),
      400,
      'validation_failed',
    ),
    webhook(
      '1 001 alerts in one request',
      alerts(...Array.from({ length: 1001 }, () => alert())),
      400,
      'validation_failed',
    ),
    webhook(
      'one bad alert among good ones',
      alerts(alert(), alert({ title: '' }), alert()),
      400,
      'validation_failed',
    ),
    webhook(
      'title with a NUL character',
      alerts(alert({ title: 'nul \u0000 inside' })),
      400,
      'validation_failed',
    ),
    // A title too long is clipped and stored (a sender does not retry a 400, so refusing would lose
    // the alert); a title that is not text at all cannot be an alert.
    webhook('title that is a number', alerts(alert({ title: 1001 })), 400, 'validation_failed'),
    webhook('unknown severity', alerts(alert({ severity: 'apocalyptic' })), 400, 'validation_failed'),
    {
      name: 'Alertmanager payload without alerts',
      path: '/api/v1/webhooks/metrics-alertmanager',
      body: JSON.stringify({ version: '4', status: 'firing' }),
      headers: JSON_TYPE,
      status: 400,
      code: 'validation_failed',
    },
    {
      name: 'Grafana payload as text/plain',
      path: '/api/v1/webhooks/dashboard-alerting',
      body: JSON.stringify({ alerts: [] }),
      headers: { 'content-type': 'text/plain' },
      status: 415,
      code: 'unsupported_media_type',
    },
  ];
}

/** The generic webhook with a signing secret configured: unsigned and wrongly signed requests. */
export function signedCases(secret: string): BadInputCase[] {
  const body = alerts(alert({ external_id: 'signature-drill' }));
  const sign = (key: string, text: string) =>
    `sha256=${createHmac('sha256', key).update(text).digest('hex')}`;
  return [
    { name: 'no signature', path: generic, body, headers: JSON_TYPE, status: 401, code: 'invalid_signature' },
    {
      name: 'signature with the wrong secret',
      path: generic,
      body,
      headers: { ...JSON_TYPE, 'x-service-signature': sign('not-the-secret', body) },
      status: 401,
      code: 'invalid_signature',
    },
    {
      name: 'signature of another body',
      path: generic,
      body,
      headers: { ...JSON_TYPE, 'x-service-signature': sign(secret, `${body} `) },
      status: 401,
      code: 'invalid_signature',
    },
  ];
}

/** Chat requests that must be refused (v0 signature, 5-minute window: docs/integrations/slack.md#signing). */
export function chatCases(signingSecret: string): BadInputCase[] {
  const command = { command: '/incident', text: 'new Drill replayed command' };
  const replayed = signedSlashCommand(signingSecret, command, {
    timestamp: Math.floor(Date.now() / 1000) - 600,
  });
  const forged = signedSlashCommand('not-the-signing-secret', command);
  return [
    {
      name: 'chat command replayed after 10 minutes',
      path: '/api/v1/chat/commands',
      ...replayed,
      status: 401,
      code: 'invalid_signature',
    },
    {
      name: 'chat command with a forged signature',
      path: '/api/v1/chat/commands',
      ...forged,
      status: 401,
      code: 'invalid_signature',
    },
  ];
}
