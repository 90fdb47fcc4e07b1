import { describe, expect, it } from 'vitest';
import { emptyIntegrationForm, integrationInputOf, parseLabelPairs } from './integration-form';
import { absoluteIntakeUrl, cronSchedule, type SnippetSource, senderSnippet } from './sender-snippet';

const URL = 'https://firebreak.example.com/api/v1/intake/k3y_Ab-9';
const ORIGIN = 'http://127.0.0.1:8080';
const of = (type: SnippetSource['type'], extra: Partial<SnippetSource> = {}): SnippetSource => ({
  type,
  name: 'Prod',
  intake_url: URL,
  interval_seconds: null,
  ...extra,
});

describe('sender snippets', () => {
  it('gives Alertmanager a webhook_configs receiver with the URL', () => {
    const snippet = senderSnippet(of('alertmanager'), ORIGIN);
    expect(snippet.kind).toBe('yaml');
    expect(snippet.text).toBe(
      [
        'receivers:',
        '  - name: firebreak-Prod',
        '    webhook_configs:',
        `      - url: ${URL}`,
        '        send_resolved: true',
      ].join('\n'),
    );
  });

  it('quotes a receiver name YAML would misread', () => {
    const snippet = senderSnippet(of('alertmanager', { name: 'db: primary #1' }), ORIGIN);
    expect(snippet.text).toContain('  - name: "firebreak-db: primary #1"');
  });

  it('gives Grafana contact point steps naming the URL', () => {
    const snippet = senderSnippet(of('grafana'), ORIGIN);
    expect(snippet.kind).toBe('steps');
    expect(snippet.text).toContain('Integration: Webhook');
    expect(snippet.text).toContain(`3. URL: ${URL}`);
  });

  it('subscribes the URL to SNS over HTTPS for CloudWatch', () => {
    const { text } = senderSnippet(of('cloudwatch'), ORIGIN);
    expect(text).toContain('aws sns subscribe --topic-arn "$TOPIC_ARN" --protocol https');
    expect(text).toContain(`--notification-endpoint '${URL}'`);
  });

  it('posts a valid generic alert body with curl', () => {
    const { text, kind } = senderSnippet(of('generic'), ORIGIN);
    expect(kind).toBe('shell');
    expect(text.startsWith(`curl -sS -X POST '${URL}' -H 'content-type: application/json'`)).toBe(true);
    const body = /-d '(.*)'$/.exec(text)?.[1];
    expect(JSON.parse(body ?? '')).toMatchObject({ alerts: [{ title: expect.any(String) }] });
  });

  it('pings a heartbeat from cron with curl -fsS at least once per interval', () => {
    const { text } = senderSnippet(of('heartbeat', { interval_seconds: 300 }), ORIGIN);
    expect(text).toBe(`*/5 * * * * curl -fsS -m 10 --retry 3 '${URL}' > /dev/null`);
  });

  it('says plainly that PagerDuty and Opsgenie bodies are not accepted yet', () => {
    expect(senderSnippet(of('pagerduty'), ORIGIN)).toMatchObject({ kind: 'none', text: URL });
    expect(senderSnippet(of('opsgenie'), ORIGIN).intro).toContain('Opsgenie');
  });

  it('completes a relative intake URL with the console origin', () => {
    expect(absoluteIntakeUrl('/api/v1/intake/abc', `${ORIGIN}/`)).toBe(`${ORIGIN}/api/v1/intake/abc`);
    expect(absoluteIntakeUrl(URL, ORIGIN)).toBe(URL);
    expect(senderSnippet(of('generic', { intake_url: '/api/v1/intake/abc' }), ORIGIN).text).toContain(
      `'${ORIGIN}/api/v1/intake/abc'`,
    );
  });

  it('never lets the cron step be longer than the interval', () => {
    expect(cronSchedule(30)).toBe('* * * * *');
    expect(cronSchedule(90)).toBe('* * * * *');
    expect(cronSchedule(600)).toBe('*/10 * * * *');
    expect(cronSchedule(3600)).toBe('0 * * * *');
    expect(cronSchedule(3 * 3600 + 59)).toBe('0 */3 * * *');
    expect(cronSchedule(2 * 86_400)).toBe('0 0 * * *');
  });
});

describe('the New integration form', () => {
  it('sends heartbeat fields only for a heartbeat', () => {
    const form = { ...emptyIntegrationForm(), name: ' Nightly backup ', labels: 'team = storage' };
    expect(integrationInputOf(form)).toEqual({
      input: {
        name: 'Nightly backup',
        type: 'generic',
        enabled: true,
        labels: { team: 'storage' },
        escalation_policy_id: null,
      },
    });
    const heartbeat = { ...form, type: 'heartbeat' as const, intervalSeconds: '900', graceSeconds: '' };
    const sent = integrationInputOf(heartbeat);
    expect(sent).toMatchObject({ input: { interval_seconds: 900, severity: 'critical' } });
    // An empty grace is left to the API's default rather than sent as 0.
    expect(sent).not.toHaveProperty('input.grace_seconds');
  });

  it('reports a label line without a key instead of guessing', () => {
    expect(parseLabelPairs('team=a\nhost')).toMatchObject({ error: 'Labels, line 2: write key=value' });
    expect(parseLabelPairs('=x').error).toBeDefined();
    expect(parseLabelPairs('url=https://a/b?c=d\n\n')).toEqual({ labels: { url: 'https://a/b?c=d' } });
  });
});
