import type { PageAckResult, PageLinkView } from '@firebreak/services';

// The acknowledge link's pages: server-rendered, no script, readable on a phone at 3 a.m.

const style = `body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#111}
h1{font-size:1.3rem}.meta{color:#555}button{font-size:1.2rem;padding:.8rem 2rem;background:#b91c1c;color:#fff;border:0;border-radius:.4rem}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${style}</style></head><body>${body}</body></html>`;
}

export function linkPage(link: PageLinkView): string {
  const { incident, user } = link;
  const head = `<h1>#${incident.number} ${escapeHtml(incident.title)}</h1>
<p class="meta">Severity ${escapeHtml(incident.severity)} · ${escapeHtml(incident.status)} · paging ${escapeHtml(user.name)}</p>`;
  if (incident.status !== 'triggered') {
    return page(
      `#${incident.number}`,
      `${head}<p>This incident is already ${escapeHtml(incident.status)}. Nothing to do.</p>`,
    );
  }
  return page(
    `#${incident.number} — acknowledge`,
    `${head}<form method="post"><button type="submit">Acknowledge</button></form>
<p class="meta">Acknowledging stops the escalation and records you, ${escapeHtml(user.name)}, on the timeline.</p>`,
  );
}

export function acknowledgedPage(result: Exclude<PageAckResult, { outcome: 'invalid' }>): string {
  const { incident } = result;
  const text =
    result.outcome === 'acknowledged'
      ? 'Acknowledged. The escalation has stopped.'
      : `Already ${escapeHtml(result.status)} by ${escapeHtml(result.by ?? 'someone else')}. Nothing changed.`;
  return page(
    `#${incident.number}`,
    `<h1>#${incident.number} ${escapeHtml(incident.title)}</h1><p>${text}</p>`,
  );
}

export function invalidLinkPage(): string {
  return page(
    'Link not valid',
    '<h1>This acknowledge link is not valid</h1><p>It has expired (links work for 24 hours) or was changed. Nothing was acknowledged. Open Firebreak to see the incident.</p>',
  );
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
