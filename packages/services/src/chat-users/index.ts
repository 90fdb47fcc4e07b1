export * from './channel-incident';
export * from './identify';
export * from './incident-status';
