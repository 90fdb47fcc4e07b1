import type { HeartbeatState } from '@firebreak/schema';

const text: Record<HeartbeatState['status'], string> = {
  waiting: 'Waiting for first ping',
  up: 'Up',
  missed: 'Missed',
};

// Colour is never the only signal: the badge says its state in words.
export function HeartbeatBadge({ heartbeat }: { heartbeat: HeartbeatState }) {
  return <span className={`badge hb-${heartbeat.status}`}>{text[heartbeat.status]}</span>;
}
