import { channelPurpose, channelTopic, renderCard, resolvedTopic } from '../../outbound/card';
import { escapeMrkdwn } from '../../outbound/format';
import { pageText, renderEntry, shiftNoticeText } from '../../outbound/messages';
import type { ChatRenderer } from '../chat-platform';

/** Slack's look: Block Kit cards and mrkdwn text (outbound/card.ts, messages.ts, format.ts). */
export const slackRenderer: ChatRenderer = {
  card: renderCard,
  entry: renderEntry,
  topic: channelTopic,
  purpose: channelPurpose,
  resolvedTopic,
  page: pageText,
  shiftNotice: shiftNoticeText,
  plainText: escapeMrkdwn,
};
