import type { SettingsView } from '@firebreak/schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

/**
 * Turns the fixed `/api/v1/webhooks/*` paths on or off (admin). Off, they answer 404 and only keyed
 * intake URLs take alerts, so a sender still posting to a fixed path is cut off: hence the confirm.
 */
export function useFixedPathsToggle() {
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => api.setFixedWebhooksEnabled(enabled),
    onSuccess: (view) => queryClient.setQueryData<SettingsView>(['settings'], view),
  });
  const turnOff = () => {
    if (
      window.confirm(
        'Turn the fixed webhook paths off? Senders still posting to them get 404 until they use a keyed URL.',
      )
    )
      toggle.mutate(false);
  };
  return { toggle, turnOff, turnOn: () => toggle.mutate(true) };
}
