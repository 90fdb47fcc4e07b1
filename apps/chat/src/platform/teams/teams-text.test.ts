import { describe, expect, it } from 'vitest';
import { TeamsApiError } from './api-error';
import { classifyTeamsError } from './errors';
import { commandTextOf } from './inbound';
import { escapeTeamsMarkdown } from './markup';
import { slackReplyToTeams } from './reply-text';

describe('what Teams shows', () => {
  it('makes people’s text inert: markdown escaped, HTML as entities', () => {
    expect(escapeTeamsMarkdown('**db-1** <at>all</at> [x](https://evil) & _y_ #1')).toBe(
      '\\*\\*db-1\\*\\* &lt;at&gt;all&lt;/at&gt; \\[x\\](https://evil) &amp; \\_y\\_ \\#1',
    );
  });

  it('turns the command logic’s Slack replies into Teams markdown', () => {
    expect(
      slackReplyToTeams(
        ':rotating_light: <https://f.example/incidents/7|INC-7> opened by <@4c7e1a2b>: *Disk [full]* (severity high).',
        'Bob Roe',
      ),
    ).toBe(
      '🚨 [INC-7](https://f.example/incidents/7) opened by **Bob Roe**: **Disk \\[full\\]** (severity high).',
    );
    expect(slackReplyToTeams('• `@Firebreak ack` acknowledges', '')).toBe('• `@Firebreak ack` acknowledges');
  });

  it('reads the command after the bot’s mention, whatever the bot is called', () => {
    expect(commandTextOf('<at>Firebreak Bot</at>&nbsp;new Disk &amp; CPU&nbsp;')).toBe('new Disk & CPU');
    expect(commandTextOf('ack')).toBe('ack');
    expect(commandTextOf(undefined)).toBe('');
  });
});

describe('Microsoft’s failures', () => {
  it('sorts them into rate limits, outages and refusals', () => {
    expect(classifyTeamsError(new TeamsApiError('graph', 429, 'TooManyRequests', 7))).toEqual({
      kind: 'rate_limited',
      code: 'TooManyRequests',
      retryAfterS: 7,
    });
    expect(classifyTeamsError(new TeamsApiError('connector', 0, 'network_error'))).toMatchObject({
      kind: 'transient',
    });
    expect(classifyTeamsError(new TeamsApiError('graph', 503, 'http_503'))).toMatchObject({
      kind: 'transient',
    });
    // A token that lapsed early is asked for anew on the next try; a refused secret is for an admin.
    expect(classifyTeamsError(new TeamsApiError('graph', 401, 'InvalidAuthenticationToken'))).toMatchObject({
      kind: 'transient',
    });
    expect(classifyTeamsError(new TeamsApiError('login', 401, 'invalid_client'))).toEqual({
      kind: 'refused',
      code: 'invalid_client',
      reason: 'other',
    });
    expect(classifyTeamsError(new TeamsApiError('graph', 409, 'NameAlreadyExists'))).toMatchObject({
      reason: 'name_taken',
    });
    expect(classifyTeamsError(new TeamsApiError('graph', 403, 'Forbidden'))).toMatchObject({
      reason: 'not_permitted',
    });
    expect(classifyTeamsError(new TeamsApiError('connector', 404, 'NotFound'))).toMatchObject({
      reason: 'about_the_person',
    });
    expect(classifyTeamsError(new Error('ours'))).toBeUndefined();
  });
});
