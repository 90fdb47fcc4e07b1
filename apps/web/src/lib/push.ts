/**
 * The browser side of Web Push paging (docs/paging-twilio-push.md#web-push): the service worker
 * (`/sw.js`) shows the pages; this module registers it and subscribes the browser. The subscription is
 * what `POST /api/v1/users/me/contact-methods` takes as `{type: 'push', subscription}`.
 */

/** `PushSubscription.toJSON()` narrowed to what the server stores. */
export interface PushSubscriptionPayload {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export const SERVICE_WORKER_URL = '/sw.js';

/**
 * Whether this browser can be paged by push. Push needs a secure context (HTTPS, or localhost), a
 * service worker and the Push and Notifications APIs; iOS offers them only to an app added to the home
 * screen.
 */
export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    window.isSecureContext &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

/** Registers the service worker once the page has loaded (it must not slow the first paint). */
export function registerServiceWorker(): void {
  if (typeof window === 'undefined' || !('serviceWorker' in navigator) || !window.isSecureContext) return;
  const register = () => {
    navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' }).catch((error: unknown) => {
      // Without it the console still works; only push pages are lost, and the page that offers push says so.
      console.warn('Firebreak: the service worker could not be registered', error);
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

export class PushUnavailableError extends Error {
  override name = 'PushUnavailableError';
}

/**
 * Asks for permission to notify, then subscribes with the server's VAPID public key (base64url, as
 * `VAPID_PUBLIC_KEY`). A subscription made earlier with another key cannot be used by this server, so
 * it is dropped and made again. Throws `PushUnavailableError` with a message for the person when push is
 * not supported or permission is refused.
 */
export async function subscribeToPush(vapidPublicKey: string): Promise<PushSubscriptionPayload> {
  if (!pushSupported()) {
    throw new PushUnavailableError(
      'This browser cannot receive push pages here. On iPhone and iPad, add Firebreak to the home screen first.',
    );
  }
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') {
    throw new PushUnavailableError(
      'Notifications are blocked for this site. Allow them in the browser settings, then try again.',
    );
  }
  const key = base64UrlToBytes(vapidPublicKey);
  const registration = await navigator.serviceWorker.ready;
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: key,
  });
  const json = subscription.toJSON();
  if (!json.endpoint || !json.keys?.p256dh || !json.keys.auth) {
    throw new PushUnavailableError('The browser returned a push subscription without its keys.');
  }
  return { endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } };
}

const PUSH_METHOD_KEY = 'firebreak.push-contact-method';

/** Remembers which contact method this browser's subscription became, for sign-out to remove it. */
export function rememberPushContactMethod(
  id: string,
  storage: Pick<Storage, 'setItem'> = localStorage,
): void {
  try {
    storage.setItem(PUSH_METHOD_KEY, id);
  } catch {
    // Storage refused (private mode): sign-out still drops the subscription below.
  }
}

export interface DeviceForget {
  removeContactMethod: (id: string) => Promise<unknown>;
  storage?: Pick<Storage, 'getItem' | 'removeItem'>;
  serviceWorker?: Pick<ServiceWorkerContainer, 'getRegistration'>;
}

/**
 * Sign-out on this browser, before the session ends: removes the push contact method this browser
 * registered and drops its subscription, so whoever uses the browser next is not shown the pages of
 * the person who left. A method registered before this browser remembered its id is stopped by the
 * unsubscribe alone: its push service answers 410 and the server disables it at the next page. Never
 * throws: signing out must not depend on it.
 */
export async function forgetPushOnThisDevice(options: DeviceForget): Promise<void> {
  const storage = options.storage ?? (typeof localStorage === 'undefined' ? undefined : localStorage);
  const container =
    options.serviceWorker ??
    (typeof navigator !== 'undefined' && 'serviceWorker' in navigator ? navigator.serviceWorker : undefined);
  try {
    const id = storage?.getItem(PUSH_METHOD_KEY);
    if (id) {
      await options.removeContactMethod(id).catch(() => undefined);
      storage?.removeItem(PUSH_METHOD_KEY);
    }
    const registration = await container?.getRegistration();
    const subscription = await registration?.pushManager.getSubscription();
    await subscription?.unsubscribe();
  } catch (error) {
    console.warn('Firebreak: push on this device could not be turned off at sign-out', error);
  }
}

export function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameKey(current: ArrayBuffer | null, wanted: Uint8Array): boolean {
  if (!current) return false;
  const bytes = new Uint8Array(current);
  return bytes.length === wanted.length && bytes.every((byte, i) => byte === wanted[i]);
}
