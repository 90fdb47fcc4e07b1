import type { PublicIncident, PublicStatus } from '@firebreak/schema';
import { html, raw } from 'hono/html';
import { componentStatusText, formatUtc, overallStatusText, updateStatusText } from './words';

// The public status page (docs/status-page.md): server-rendered, no script, readable in any browser and
// by a screen reader. Every value goes through hono/html's escaping, except the constant style sheet
// below (escaping would turn its quotes into entities, which CSS does not read). Colours meet WCAG AA
// contrast on white and never carry meaning alone: each status is also written out.

const style = `
:root{color-scheme:light}
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:46rem;margin:0 auto;padding:1.5rem 1rem 3rem;color:#1a1a1a;line-height:1.5;background:#fff}
h1{font-size:1.6rem;margin:0 0 1rem}
h2{font-size:1.2rem;margin:2rem 0 .75rem}
h3{font-size:1rem;margin:1rem 0 .25rem}
.overall{padding:1rem 1.25rem;border-radius:.5rem;font-weight:600;font-size:1.1rem;border-left:.5rem solid}
.overall.operational{background:#e8f5ec;border-color:#1e7a3c}
.overall.degraded{background:#fff6db;border-color:#8a5a00}
.overall.partial_outage{background:#fdeee2;border-color:#a24a00}
.overall.major_outage{background:#fbe9e9;border-color:#b3261e}
ul.components{list-style:none;padding:0;margin:0;border:1px solid #d0d0d0;border-radius:.5rem}
ul.components li{display:flex;justify-content:space-between;gap:1rem;padding:.6rem 1rem;border-top:1px solid #e4e4e4}
ul.components li:first-child{border-top:0}
.st{font-weight:600}
.st.operational{color:#1e7a3c}.st.degraded{color:#7a5000}.st.partial_outage{color:#9a4400}.st.major_outage{color:#b3261e}
article{border:1px solid #d0d0d0;border-radius:.5rem;padding:.25rem 1rem 1rem;margin-bottom:1rem}
.meta{color:#555;font-size:.9rem;margin:0}
ol.updates{list-style:none;padding:0;margin:.5rem 0 0}
ol.updates li{border-top:1px solid #e4e4e4;padding:.6rem 0 0;margin-top:.6rem}
.body{white-space:pre-wrap;margin:.25rem 0}
footer{margin-top:2.5rem;color:#555;font-size:.9rem}
.stale{padding:.75rem 1rem;border:1px solid #8a5a00;border-radius:.5rem;background:#fff6db;margin:0 0 1rem}
a{color:#0b57b0}
`;

function componentSections(status: PublicStatus) {
  const groups = new Map<string | null, PublicStatus['components']>();
  for (const component of status.components) {
    const list = groups.get(component.group);
    if (list) list.push(component);
    else groups.set(component.group, [component]);
  }
  return [...groups.entries()].map(
    ([group, list]) => html`${group === null ? '' : html`<h3>${group}</h3>`}
<ul class="components" aria-label="${group ?? 'Components'}">
${list.map(
  (component) =>
    html`<li><span>${component.name}</span><span class="st ${component.status}">${componentStatusText[component.status]}</span></li>`,
)}
</ul>`,
  );
}

function incidentArticle(incident: PublicIncident) {
  const headingId = `incident-${incident.id}`;
  return html`<article id="${headingId}" aria-labelledby="${headingId}-heading">
<h3 id="${headingId}-heading">${incident.heading}</h3>
<p class="meta">${updateStatusText[incident.status]}${
    incident.components.length > 0 ? html` · Affects ${incident.components.join(', ')}` : ''
  }</p>
<ol class="updates">
${incident.updates.map(
  (update) =>
    html`<li><strong>${updateStatusText[update.status]}</strong> <span class="meta"><time datetime="${update.created_at}">${formatUtc(update.created_at)}</time></span><p class="body">${update.body}</p></li>`,
)}
</ol>
</article>`;
}

export function renderStatusPage(status: PublicStatus, options: { stale?: boolean } = {}) {
  const ongoing = status.incidents.filter((incident) => incident.status !== 'resolved');
  const past = status.incidents.filter((incident) => incident.status === 'resolved');
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${status.title}</title>
<link rel="alternate" type="application/atom+xml" title="${status.title}" href="/status/feed.atom">
<style>${raw(style)}</style>
</head>
<body>
<header><h1>${status.title}</h1>
${
  options.stale
    ? html`<p class="stale" role="note">This page may be out of date: the current status could not be read. It shows the status as of <time datetime="${status.generated_at}">${formatUtc(status.generated_at)}</time>.</p>`
    : ''
}
<p class="overall ${status.status}" role="status">${overallStatusText[status.status]}</p>
</header>
<main>
${
  status.components.length > 0
    ? html`<section aria-labelledby="components-heading"><h2 id="components-heading">Components</h2>
${componentSections(status)}
</section>`
    : ''
}
<section aria-labelledby="incidents-heading"><h2 id="incidents-heading">Current incidents</h2>
${ongoing.length > 0 ? ongoing.map(incidentArticle) : html`<p>No incidents are ongoing.</p>`}
</section>
${
  past.length > 0
    ? html`<section aria-labelledby="resolved-heading"><h2 id="resolved-heading">Recently resolved</h2>
${past.map(incidentArticle)}
</section>`
    : ''
}
</main>
<footer>
<p>Updated <time datetime="${status.generated_at}">${formatUtc(status.generated_at)}</time>. <a href="/status/feed.atom">Subscribe to updates (Atom feed)</a> · <a href="/api/v1/status">This page as JSON</a></p>
</footer>
</body>
</html>`;
}

/** When the status could not be read and no earlier answer is kept: a short page, no details. */
export function renderStatusUnavailable() {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Status unavailable</title>
<style>${raw(style)}</style>
</head>
<body>
<main>
<h1>Status unavailable</h1>
<p>The current status could not be read. Please try again in a minute.</p>
</main>
</body>
</html>`;
}
