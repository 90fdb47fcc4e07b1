/**
 * `response_url` endpoints (docs/integrations/slack.md#timing): the service posts delayed answers to slash
 * commands and button clicks there. The URL is the credential (no token) and works at most 5 times.
 */

export interface FakeHookPost {
  url: string;
  path: string;
  contentType: string;
  /** JSON-decoded when the body is JSON, else the raw text. */
  body: unknown;
  time: Date;
}

const HOOK_MAX_USES = 5;

export class HookRecorder {
  readonly posts: FakeHookPost[] = [];
  private counter = 0;

  constructor(
    private readonly origin: () => string,
    private readonly teamId: string,
  ) {}

  newUrl(kind: 'commands' | 'actions'): string {
    this.counter += 1;
    return `${this.origin()}/hooks/${kind}/${this.teamId}/${this.counter}/fake${this.counter}`;
  }

  postsTo(url: string): FakeHookPost[] {
    return this.posts.filter((p) => p.url === url);
  }

  async handle(req: Request): Promise<Response> {
    const { pathname } = new URL(req.url);
    const url = `${this.origin()}${pathname}`;
    const raw = await req.text();
    let body: unknown = raw;
    try {
      body = JSON.parse(raw);
    } catch {
      // not JSON: keep the text so the failing assertion shows what was sent
    }
    // Slack does not document its exact answer to a spent URL; 404 `used_url` is our stand-in.
    if (this.postsTo(url).length >= HOOK_MAX_USES) {
      return Response.json({ ok: false, error: 'used_url' }, { status: 404 });
    }
    const contentType = req.headers.get('content-type') ?? '';
    this.posts.push({ url, path: pathname, contentType, body, time: new Date() });
    return Response.json({ ok: true });
  }
}
