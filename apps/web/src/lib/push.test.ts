// Sign-out on a shared browser (docs/paging-twilio-push.md#the-installable-web-app): the push contact
// method this browser registered is removed while the session still works, and the subscription is
// dropped, so the next person here is not shown the pages of the one who left.
import { describe, expect, it } from 'vitest';
import { forgetPushOnThisDevice, rememberPushContactMethod } from './push';

function fakeBrowser(subscribed: boolean) {
  const stored = new Map<string, string>();
  const storage = {
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => void stored.set(key, value),
    removeItem: (key: string) => void stored.delete(key),
  };
  const state = { unsubscribed: false };
  const subscription = {
    unsubscribe: async () => {
      state.unsubscribed = true;
      return true;
    },
  };
  const serviceWorker = {
    getRegistration: async () =>
      ({ pushManager: { getSubscription: async () => (subscribed ? subscription : null) } }) as never,
  };
  return { stored, storage, serviceWorker, state };
}

describe('turning push off on sign-out', () => {
  it('removes the contact method this browser registered, then unsubscribes', async () => {
    const browser = fakeBrowser(true);
    rememberPushContactMethod('cm-1', browser.storage);
    const removed: string[] = [];
    await forgetPushOnThisDevice({
      removeContactMethod: async (id) => removed.push(id),
      storage: browser.storage,
      serviceWorker: browser.serviceWorker,
    });
    expect(removed).toEqual(['cm-1']);
    expect(browser.stored.size).toBe(0);
    expect(browser.state.unsubscribed).toBe(true);
  });

  it('still unsubscribes when the server refuses, and never throws', async () => {
    const browser = fakeBrowser(true);
    rememberPushContactMethod('cm-2', browser.storage);
    await expect(
      forgetPushOnThisDevice({
        removeContactMethod: async () => {
          throw new Error('404');
        },
        storage: browser.storage,
        serviceWorker: browser.serviceWorker,
      }),
    ).resolves.toBeUndefined();
    expect(browser.state.unsubscribed).toBe(true);
  });

  it('asks the server nothing when this browser registered no method', async () => {
    const browser = fakeBrowser(false);
    const removed: string[] = [];
    await forgetPushOnThisDevice({
      removeContactMethod: async (id) => removed.push(id),
      storage: browser.storage,
      serviceWorker: browser.serviceWorker,
    });
    expect(removed).toEqual([]);
  });
});
