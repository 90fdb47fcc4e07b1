export * from './alertmanager';
export * from './cloudwatch';
export * from './generic';
export * from './grafana';
export * from './parse-result';
export * from './severity';
export * from './sns';
export * from './webhook-parsers';
