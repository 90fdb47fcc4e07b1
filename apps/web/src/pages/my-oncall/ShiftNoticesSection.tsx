import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { useMe } from '../../lib/session';

/** Whether chat tells the person when one of their shifts starts. */
export function ShiftNoticesSection() {
  const me = useMe();
  const queryClient = useQueryClient();
  const myId = me.data?.user?.id ?? '';
  // The user record, not the session's summary of it, is where the setting is kept.
  const user = useQuery({ queryKey: ['user', myId], queryFn: () => api.user(myId), enabled: myId !== '' });
  // Absent from an older server's answer: say so rather than show a switch that does nothing.
  const on: boolean | undefined = user.data?.shift_notices;
  // What the person just chose, shown while the server saves it (a checkbox that springs back until
  // the answer arrives reads as "did not work"); on a refusal the saved value shows again.
  const [wanted, setWanted] = useState<boolean | null>(null);
  const change = useMutation({
    mutationFn: api.setShiftNotices,
    onSuccess: (saved) => queryClient.setQueryData(['user', myId], saved),
    onSettled: () => setWanted(null),
  });
  return (
    <section className="card stack" aria-labelledby="notices-heading">
      <h2 id="notices-heading">Shift notices</h2>
      <ErrorMessage error={user.error} prefix="Could not load your profile" />
      {!user.data ? null : on === undefined ? (
        <p className="alert-box alert-info">This server does not send shift notices.</p>
      ) : (
        <label className="inline">
          <input
            type="checkbox"
            checked={wanted ?? on}
            disabled={change.isPending}
            onChange={(e) => {
              setWanted(e.target.checked);
              change.mutate(e.target.checked);
            }}
          />
          Send me a chat message when my shift starts
        </label>
      )}
      <ErrorMessage error={change.error} prefix="The setting was not changed" />
    </section>
  );
}
