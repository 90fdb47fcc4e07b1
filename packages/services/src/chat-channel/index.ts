export * from './claim-event';
export * from './reads';
export * from './record-channel-opened';
export * from './record-channel-state';
export * from './record-failure';
export * from './record-posts';
export * from './recover-work';
export * from './session';
