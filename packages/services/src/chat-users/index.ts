export * from './channel-incident';
export * from './identify';
