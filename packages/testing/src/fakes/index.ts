export {
  type AiMessage,
  type AiProviderKind,
  type AiRequest,
  type AiResponder,
  defaultAiResponder,
  FakeAiProvider,
  type FakeAiProviderOptions,
  type MalformedShape,
  startFakeAiProvider,
} from './ai-provider';
export {
  BOT_FRAMEWORK_ISSUER,
  type BotTokenClaims,
  FakeBotFrameworkAuth,
  type SignOptions as BotTokenSignOptions,
  startFakeBotFrameworkAuth,
} from './bot-framework-auth';
export {
  type FakeActivity,
  FakeBotConnector,
  type FakeBotConnectorOptions,
  type FakeConversation,
  startFakeBotConnector,
} from './bot-framework-connector';
export {
  DEFAULT_CHAT_IDENTITY,
  DEFAULT_CHAT_USERS,
  FakeChatApi,
  type FakeChatApiOptions,
  type FakeChatCall,
  type FakeHookPost,
  type OutageOptions,
  startFakeChatApi,
} from './chat-api';
export {
  type BlockActionInput,
  blockActionsBody,
  blockActionsPayload,
  DEFAULT_SLASH_COMMAND,
  eventCallback,
  type SignedChatRequest,
  type SlashCommandFields,
  signChatRequest,
  signedBlockActions,
  signedChatRequest,
  signedEvent,
  signedSlashCommand,
  slashCommandBody,
  urlVerification,
} from './chat-api/signing';
export type {
  FakeChannel,
  FakeChatUser,
  FakeEphemeral,
  FakeMessage,
  FakeUpdate,
  SeedChannel,
  WorkspaceIdentity,
} from './chat-api/state';
export { channelNameError, DEFAULT_BOT_SCOPES } from './chat-api/validation';
export {
  CHANNEL_NAME_MAX_LENGTH as TEAMS_CHANNEL_NAME_MAX_LENGTH,
  FakeGraph,
  type FakeGraphChannel,
  type FakeGraphOptions,
  type FakeGraphUser,
  startFakeGraph,
  teamsChannelNameError,
} from './graph-teams';
export {
  FakeOnCallApi,
  type FakeOnCallApiOptions,
  loadOnCallFixtures,
  ONCALL_RESOURCES,
  type OnCallDataSet,
  type OnCallItem,
  type OnCallRequestLogEntry,
  type OnCallResource,
  startFakeOnCallApi,
} from './oncall-api';
export {
  FakeOpsgenieApi,
  type FakeOpsgenieApiOptions,
  loadOpsgenieFixtures,
  type OpsgenieDataSet,
  type OpsgenieItem,
  type OpsgenieRequestLogEntry,
  type OpsgenieResource,
  startFakeOpsgenieApi,
} from './opsgenie-api';
export {
  FakePagerDutyApi,
  type FakePagerDutyApiOptions,
  loadPagerDutyFixtures,
  type PagerDutyDataSet,
  type PagerDutyItem,
  type PagerDutyRequestLogEntry,
  type PagerDutyResource,
  startFakePagerDutyApi,
} from './pagerduty-api';
export {
  type FakePushMessage,
  type FakePushRefusal,
  FakePushService,
  type FakePushSubscription,
  startFakePushService,
} from './push-service';
export {
  FakeSns,
  type FakeSnsCertificateRequest,
  type FakeSnsConfirmation,
  type FakeSnsOptions,
  type SignedSnsEnvelope,
  type SnsEnvelopeFields,
  type SnsSignatureVersion,
  startFakeSns,
} from './sns';
export {
  FAKE_TEAMS_APP_ID,
  FAKE_TEAMS_TEAM_ID,
  FAKE_TEAMS_TENANT_ID,
  FakeTeams,
  type FakeTeamsOptions,
  startFakeTeams,
} from './teams';
export { type FakeMicrosoftRequest, FakeThrottle, type ThrottleLimit } from './teams-throttle';
export {
  BOT_FRAMEWORK_SCOPE,
  FakeTeamsTokenEndpoint,
  type FakeTeamsTokenEndpointOptions,
  GRAPH_SCOPE,
  startFakeTeamsTokenEndpoint,
} from './teams-token-endpoint';
export {
  FakeTelegram,
  type FakeTelegramMessage,
  type FakeTelegramOptions,
  type FakeTelegramRequest,
  startFakeTelegram,
} from './telegram';
export {
  FakeTwilio,
  type FakeTwilioCall,
  type FakeTwilioMessage,
  type FakeTwilioOptions,
  type FakeTwilioRequest,
  startFakeTwilio,
} from './twilio';
export { type ParsedTwiml, parseTwiml, type TwimlGather } from './twilio/twiml';
export { postSignedWebhook, type TwilioWebhookAnswer } from './twilio/webhook';
