import type { Config } from '@firebreak/config';
import type { Logger } from '@firebreak/logger';

/**
 * A slash command's immediate answer (docs/integrations/slack.md#commands): an `ephemeral` one is seen
 * only by the invoking user.
 */
export interface CommandReply {
  response_type: 'ephemeral' | 'in_channel';
  text: string;
}

export const ephemeral = (text: string): CommandReply => ({ response_type: 'ephemeral', text });
export const inChannel = (text: string): CommandReply => ({ response_type: 'in_channel', text });

/** Slack mrkdwn treats `&`, `<` and `>` as markup; user text must not become links or mentions. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export const incidentLabel = (number: number) => `INC-${number}`;

/**
 * The incident's page in the web UI. Without PUBLIC_URL its documented default applies
 * (`http://localhost:$PORT`, README.md#configuration), with the embedded default port: that process is
 * the one serving the UI.
 */
export function incidentUrl(config: Pick<Config, 'publicUrl' | 'port'>, number: number): string {
  const base = config.publicUrl ?? `http://localhost:${config.port ?? 8080}`;
  return `${base.replace(/\/+$/, '')}/incidents/${number}`;
}

const RESPONSE_URL_TIMEOUT_MS = 5000;

/**
 * Answers a button click later through its `response_url` (the URL is the credential; no token). A
 * click's HTTP answer is only an acknowledgement, so errors reach the user this way. Never throws:
 * the user not seeing an error message must not turn into a failed request.
 */
export async function replyLater(
  logger: Logger,
  responseUrl: string | undefined,
  text: string,
): Promise<void> {
  if (!responseUrl) return;
  try {
    const res = await fetch(responseUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ response_type: 'ephemeral', replace_original: false, text }),
      signal: AbortSignal.timeout(RESPONSE_URL_TIMEOUT_MS),
      redirect: 'error',
    });
    if (!res.ok) logger.warn({ status: res.status }, 'chat: response_url reply failed');
  } catch (error) {
    logger.warn(
      { reason: error instanceof Error ? error.message : String(error) },
      'chat: response_url reply failed',
    );
  }
}
