export { fireDueHeartbeats } from './fire-due';
export { type HeartbeatPing, pingHeartbeat } from './ping';
export { settleDisabledHeartbeats, settleHeartbeatOnDisable } from './settle';
