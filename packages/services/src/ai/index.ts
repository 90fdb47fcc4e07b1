export * from './context';
export * from './requests';
