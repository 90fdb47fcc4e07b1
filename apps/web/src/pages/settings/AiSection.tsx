import type { SettingsView } from '@firebreak/schema';

export function AiSection({ settings }: { settings: SettingsView }) {
  return (
    <section className="card" aria-labelledby="ai-heading">
      <h2 id="ai-heading">AI</h2>
      {settings.ai.configured ? (
        <p style={{ margin: 0 }}>
          Provider <strong>{settings.ai.provider}</strong>: summaries, post-mortem drafts and hand-off digests
          are on.
        </p>
      ) : (
        <p className="subtle small" style={{ margin: 0 }}>
          Off. Set AI_PROVIDER (openai or anthropic) and AI_API_KEY to draft summaries and post-mortems.
        </p>
      )}
    </section>
  );
}
