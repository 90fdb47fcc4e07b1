import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { pushSupported, rememberPushContactMethod, subscribeToPush } from '../../lib/push';

/**
 * "Enable push on this device": subscribes this browser with the server's key and registers the
 * subscription as a contact. Offered only where the browser can receive push (a secure origin with a
 * service worker); the helper's own error says why when permission is refused.
 */
export function PushButton({ vapidPublicKey }: { vapidPublicKey: string }) {
  const queryClient = useQueryClient();
  const enable = useMutation({
    mutationFn: async () => {
      const added = await api.addContactMethod({
        type: 'push',
        subscription: await subscribeToPush(vapidPublicKey),
      });
      rememberPushContactMethod(added.id);
      return added;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['contact-methods'] }),
  });
  if (!pushSupported()) {
    return (
      <span className="hint">
        This browser cannot receive push here (it needs HTTPS and a service worker).
      </span>
    );
  }
  return (
    <>
      <button type="button" disabled={enable.isPending} onClick={() => enable.mutate()}>
        Enable push on this device
      </button>
      <ErrorMessage error={enable.error} prefix="Push was not enabled" />
    </>
  );
}
