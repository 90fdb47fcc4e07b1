import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { type TelegramSettingsView, telegramApi } from '../../lib/api-telegram';

const fromEnv = ' (from the environment)';

function feedText(view: TelegramSettingsView): string {
  const { feed } = view;
  if (!feed.enabled) return 'off — set a bot token and a feed chat id';
  if (feed.failing_reason)
    return `failing since ${feed.failing_since ?? '?'}: ${feed.last_error ?? feed.failing_reason}`;
  const waiting = feed.pending > 0 ? `, ${feed.pending} waiting` : '';
  return `on${feed.last_sent_at ? `, last message ${feed.last_sent_at}` : ''}${waiting}`;
}

/**
 * Settings → Telegram (admins; docs/telegram.md): the bot token is write-only, the feed chat id is
 * shown, and a value the environment sets is shown as such and cannot be changed here.
 */
export function TelegramSection() {
  const queryClient = useQueryClient();
  const view = useQuery({ queryKey: ['telegram-settings'], queryFn: telegramApi.view });
  const [token, setToken] = useState('');
  const [chatId, setChatId] = useState<string | undefined>(undefined);
  const save = useMutation({
    mutationFn: telegramApi.update,
    onSuccess: (data) => {
      setToken('');
      setChatId(undefined);
      queryClient.setQueryData(['telegram-settings'], data);
    },
  });
  const test = useMutation({ mutationFn: telegramApi.test });
  const data = view.data;
  const chatValue = chatId ?? data?.feed_chat_id ?? '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!data) return;
    save.mutate({
      ...(token.trim() && data.bot_token_source !== 'env' ? { bot_token: token.trim() } : {}),
      ...(chatId !== undefined && data.feed_chat_id_source !== 'env'
        ? { feed_chat_id: chatId.trim() === '' ? null : chatId.trim() }
        : {}),
    });
  };
  return (
    <section className="card stack" aria-labelledby="telegram-heading">
      <h2 id="telegram-heading">Telegram</h2>
      <ErrorMessage error={view.error} prefix="Could not load the Telegram settings" />
      {data ? (
        <dl className="facts">
          <dt>Bot token</dt>
          <dd>{data.bot_token_set ? `set${data.bot_token_source === 'env' ? fromEnv : ''}` : 'not set'}</dd>
          <dt>Feed chat</dt>
          <dd>
            {data.feed_chat_id
              ? `${data.feed_chat_id}${data.feed_chat_id_source === 'env' ? fromEnv : ''}`
              : 'not set'}
          </dd>
          <dt>Incident feed</dt>
          <dd data-testid="telegram-feed-state">{feedText(data)}</dd>
        </dl>
      ) : null}
      {data ? (
        <form className="form" onSubmit={submit} aria-label="Telegram settings">
          <div className="form-row">
            <label>
              Bot token <span className="hint">from @BotFather; never shown again</span>
              <input
                type="password"
                autoComplete="off"
                disabled={data.bot_token_source === 'env'}
                placeholder={data.bot_token_set ? '•••••• (set)' : '123456:ABC-DEF…'}
                value={token}
                onChange={(e) => setToken(e.target.value)}
              />
            </label>
            <label>
              Feed chat id <span className="hint">e.g. -1001234567890; empty turns the feed off</span>
              <input
                type="text"
                disabled={data.feed_chat_id_source === 'env'}
                value={chatValue}
                onChange={(e) => setChatId(e.target.value)}
              />
            </label>
          </div>
          <ErrorMessage error={save.error} prefix="The Telegram settings were not saved" />
          <div className="actions">
            <button type="submit" disabled={save.isPending || (!token.trim() && chatId === undefined)}>
              Save
            </button>
            {data.bot_token_set && data.bot_token_source !== 'env' ? (
              <button type="button" className="danger" onClick={() => save.mutate({ bot_token: null })}>
                Remove token
              </button>
            ) : null}
            <button
              type="button"
              disabled={!data.bot_token_set || test.isPending}
              onClick={() => test.mutate()}
            >
              {test.isPending ? 'Sending…' : 'Send a test message'}
            </button>
          </div>
          <ErrorMessage error={test.error} prefix="The test did not run" />
          {test.data ? (
            <p className={test.data.ok ? 'alert-box alert-info' : 'alert-box alert-error'} role="status">
              {test.data.ok
                ? `Connected as @${test.data.bot_username ?? 'bot'}${data.feed_chat_id ? '; a test message went to the feed chat.' : '.'}`
                : `Telegram refused: ${test.data.error}`}
            </p>
          ) : null}
        </form>
      ) : null}
    </section>
  );
}
