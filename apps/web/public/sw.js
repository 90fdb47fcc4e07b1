// Firebreak's service worker (docs/paging-twilio-push.md#the-installable-web-app). It shows the pages
// the worker sends by Web Push and acknowledges from the notification itself, so a phone with the app
// installed can be paged and answer without opening the console. It caches nothing: the console is
// useless without the server, and a stale copy of it would be worse than none.
//
// Plain JavaScript served from /sw.js as it is (not bundled), so its scope is the whole origin.

self.addEventListener('install', (event) => {
  // A new version takes over at once: a page must never be shown by an old worker's code.
  event.waitUntil(self.skipWaiting());
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  // Browsers require every push to show a notification (userVisibleOnly), even an unreadable one.
  event.waitUntil(showPage(readPage(event.data)));
});

self.addEventListener('notificationclick', (event) => {
  event.waitUntil(onNotificationClick(event.notification, event.action));
});

/** The push's JSON ({title, body, url, ack_url, tag}); a page that cannot be read still says so. */
function readPage(data) {
  try {
    const page = data ? data.json() : {};
    return {
      title: typeof page.title === 'string' && page.title ? page.title : 'Firebreak page',
      body: typeof page.body === 'string' ? page.body : '',
      url: typeof page.url === 'string' ? page.url : '/',
      ack_url: typeof page.ack_url === 'string' ? page.ack_url : undefined,
      tag: typeof page.tag === 'string' ? page.tag : undefined,
    };
  } catch {
    return { title: 'Firebreak page', body: 'Open Firebreak to see the incident.', url: '/' };
  }
}

function showPage(page) {
  return self.registration.showNotification(page.title, {
    body: page.body,
    icon: '/icon-192.png',
    badge: '/icon-192.png',
    // The same incident paged again replaces its notification, and rings again (renotify).
    tag: page.tag,
    renotify: Boolean(page.tag),
    // A page stays on screen until someone acts on it.
    requireInteraction: true,
    data: { url: page.url, ack_url: page.ack_url, tag: page.tag },
    actions: page.ack_url ? [{ action: 'ack', title: 'Acknowledge' }] : [],
  });
}

/** Acknowledge from the button; a click anywhere else opens the incident. */
async function onNotificationClick(notification, action) {
  const data = notification.data || {};
  notification.close();
  if (action === 'ack' && data.ack_url) return acknowledge(data);
  return openIncident(data.url || '/');
}

/**
 * POSTs the page link. The link's token is the credential, so no cookie is sent (credentials: 'omit'),
 * and no login is needed: the phone may be locked, the console logged out.
 */
async function acknowledge(data) {
  let title;
  let body;
  try {
    const response = await fetch(data.ack_url, {
      method: 'POST',
      credentials: 'omit',
      headers: { accept: 'application/json' },
    });
    if (response.ok) {
      // `{outcome: 'acknowledged' | 'already', status?, by?}`: someone may have taken it first.
      const answer = await response.json().catch(() => ({}));
      title = answer.outcome === 'already' ? `Already ${answer.status || 'taken'}` : 'Acknowledged';
      body =
        answer.outcome === 'already'
          ? `${answer.by || 'Someone else'} got there first. Open Firebreak for the incident.`
          : 'Escalation stopped. Open Firebreak for the incident.';
    } else {
      title = 'Not acknowledged';
      body = await refusalMessage(response);
    }
  } catch {
    title = 'Not acknowledged';
    body = 'Firebreak could not be reached. Open the incident to acknowledge it.';
  }
  // The answer replaces the page (same tag), so the person sees whether it worked.
  await self.registration.showNotification(title, {
    body,
    icon: '/icon-192.png',
    tag: data.tag,
    data: { url: data.url },
  });
}

async function refusalMessage(response) {
  try {
    const answer = await response.json();
    if (typeof answer?.error?.message === 'string') return answer.error.message;
  } catch {
    // Not the API's error envelope (a proxy's page): the status says enough.
  }
  return `Firebreak answered ${response.status}. Open the incident to acknowledge it.`;
}

/** Focuses a console window already on the incident, else opens one. */
async function openIncident(url) {
  const target = new URL(url, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => client.url === target);
  if (open) return open.focus();
  return self.clients.openWindow(target);
}
