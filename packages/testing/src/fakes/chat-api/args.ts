import type { SlackArgs } from './shared';

/** Fields @slack/web-api JSON-stringifies into a form field (docs/integrations/slack.md#web-api). */
const JSON_FIELDS = ['blocks', 'attachments', 'metadata'];

function decodeJsonField(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value; // left as a string, which the method then refuses as `invalid_blocks_format`
  }
}

/**
 * @slack/web-api sends form bodies with JSON-stringified blocks; other clients send JSON bodies. Take
 * both, plus query-string arguments (Slack accepts GET for reads).
 */
export async function readArgs(req: Request): Promise<SlackArgs | 'invalid_json'> {
  const args: SlackArgs = Object.fromEntries(new URL(req.url).searchParams);
  const raw = req.method === 'POST' ? await req.text() : '';
  if ((req.headers.get('content-type') ?? '').includes('application/json')) {
    try {
      const parsed = JSON.parse(raw) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'invalid_json';
      Object.assign(args, parsed);
    } catch {
      return 'invalid_json';
    }
  } else {
    for (const [key, value] of new URLSearchParams(raw)) args[key] = value;
  }
  for (const key of JSON_FIELDS) if (key in args) args[key] = decodeJsonField(args[key]);
  return args;
}

/** The bearer token, or the `token` form field older clients send. */
export function tokenOf(req: Request, args: SlackArgs): string | undefined {
  const bearer = req.headers.get('authorization')?.match(/^Bearer\s+(.+)$/i)?.[1];
  return bearer ?? (typeof args.token === 'string' ? args.token : undefined);
}
