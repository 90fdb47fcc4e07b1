export { type ChatAuthCheck, type ChatAuthCheckOptions, createChatAuthCheck } from './auth-check';
export { chatErrorCode, createChatClient, retryAfterSeconds } from './client';
