/** What the fake chat workspace holds. Tests read these objects directly to assert what users would see. */

export interface FakeChatUser {
  id: string;
  name: string;
  email?: string;
  realName?: string;
  tz?: string;
  isBot?: boolean;
  deleted?: boolean;
}

export interface FakeTopic {
  value: string;
  creator: string;
  last_set: number;
}

export interface FakeChannel {
  id: string;
  name: string;
  isPrivate: boolean;
  /** Direct-message channel (`D…`) opened with conversations.open or by posting to a user id. */
  isIm: boolean;
  /** For DMs: the user on the other side. */
  imUser?: string;
  created: number;
  creator: string;
  topic: FakeTopic;
  purpose: FakeTopic;
  /** User ids, the bot included while it is a member. */
  members: Set<string>;
  archived: boolean;
  /** Deleted channels answer `channel_not_found` but are kept here so tests can still inspect them. */
  deleted: boolean;
  previousNames: string[];
  messages: FakeMessage[];
}

export interface FakeMessageEdit {
  text: string | undefined;
  blocks: unknown[] | undefined;
  at: Date;
}

export interface FakeMessage {
  channel: string;
  ts: string;
  text: string | undefined;
  blocks: unknown[] | undefined;
  threadTs: string | undefined;
  /** Posting user (the bot for everything the service sends). */
  user: string;
  postedAt: Date;
  /** Earlier versions, oldest first; the current version is `text`/`blocks`. */
  edits: FakeMessageEdit[];
  /** Every other argument the service passed (metadata, unfurl_links, …). */
  args: Record<string, unknown>;
}

export interface FakeEphemeral {
  channel: string;
  user: string;
  text: string | undefined;
  blocks: unknown[] | undefined;
  threadTs: string | undefined;
  messageTs: string;
  postedAt: Date;
}

export interface FakeUpdate {
  channel: string;
  ts: string;
  text: string | undefined;
  blocks: unknown[] | undefined;
  at: Date;
}

export interface SeedChannel {
  name: string;
  id?: string;
  isPrivate?: boolean;
  /** Default true: the bot is in the channel. */
  botIsMember?: boolean;
  /** Default: the bot created it. Another creator makes rename answer `not_authorized`. */
  creator?: string;
  members?: string[];
  topic?: string;
  purpose?: string;
  archived?: boolean;
}

export interface WorkspaceIdentity {
  teamId: string;
  teamName: string;
  teamDomain: string;
  botUserId: string;
  botId: string;
  botName: string;
}

export const DEFAULT_CHAT_IDENTITY: WorkspaceIdentity = {
  teamId: 'T0TEAM001',
  teamName: 'Acme',
  teamDomain: 'acme',
  botUserId: 'U0BOTUSR1',
  botId: 'B0BOT0001',
  botName: 'incident-bot',
};

export const DEFAULT_CHAT_USERS: FakeChatUser[] = [
  { id: 'U0ALICE01', name: 'alice', realName: 'Alice Doe', email: 'alice@example.com', tz: 'Europe/Berlin' },
  { id: 'U0BOB0002', name: 'bob', realName: 'Bob Roe', email: 'bob@example.com' },
  { id: 'U0CAROL03', name: 'carol', realName: 'Carol Poe', email: 'carol@example.com' },
];

const emptyTopic = (): FakeTopic => ({ value: '', creator: '', last_set: 0 });

/** In-memory workspace: channels, users and the message clock. */
export class ChatWorkspace {
  readonly channels = new Map<string, FakeChannel>();
  readonly users = new Map<string, FakeChatUser>();
  readonly updates: FakeUpdate[] = [];
  readonly ephemerals: FakeEphemeral[] = [];
  private idCounter = 0;
  private lastTs = 0;

  constructor(readonly identity: WorkspaceIdentity) {}

  nextId(prefix: 'C' | 'D'): string {
    this.idCounter += 1;
    return `${prefix}0FAKE${String(this.idCounter).padStart(4, '0')}`;
  }

  /** Slack message ts: `<unix seconds>.<6 digits>`, unique and increasing within a channel (we make it
   * unique across the workspace, which is stricter). */
  nextTs(): string {
    const micros = Math.max(Date.now() * 1000, this.lastTs + 1);
    this.lastTs = micros;
    return `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0')}`;
  }

  addChannel(seed: SeedChannel): FakeChannel {
    const creator = seed.creator ?? this.identity.botUserId;
    const members = new Set(seed.members ?? []);
    if (seed.botIsMember ?? true) members.add(this.identity.botUserId);
    else members.delete(this.identity.botUserId);
    const now = Math.floor(Date.now() / 1000);
    const channel: FakeChannel = {
      id: seed.id ?? this.nextId('C'),
      name: seed.name,
      isPrivate: seed.isPrivate ?? false,
      isIm: false,
      created: now,
      creator,
      topic: seed.topic ? { value: seed.topic, creator, last_set: now } : emptyTopic(),
      purpose: seed.purpose ? { value: seed.purpose, creator, last_set: now } : emptyTopic(),
      members,
      archived: seed.archived ?? false,
      deleted: false,
      previousNames: [],
      messages: [],
    };
    this.channels.set(channel.id, channel);
    return channel;
  }

  /** Finds a live channel by id, `#name` or name. Deleted channels are invisible, as in Slack. */
  find(ref: string | undefined): FakeChannel | undefined {
    if (!ref) return undefined;
    const byId = this.channels.get(ref);
    if (byId) return byId.deleted ? undefined : byId;
    const name = ref.startsWith('#') ? ref.slice(1) : ref;
    return [...this.channels.values()].find((c) => !c.deleted && !c.isIm && c.name === name);
  }

  /** Names stay taken by archived channels (Slack counts them), but not by deleted ones. */
  nameTaken(name: string, except?: FakeChannel): boolean {
    return [...this.channels.values()].some((c) => !c.deleted && !c.isIm && c !== except && c.name === name);
  }

  /** The bot's DM with a user, created on first use (conversations.open or chat.postMessage to `U…`). */
  imWith(userId: string): { channel: FakeChannel; existed: boolean } {
    const existing = [...this.channels.values()].find((c) => c.isIm && c.imUser === userId);
    if (existing) return { channel: existing, existed: true };
    const channel = this.addChannel({ id: this.nextId('D'), name: userId, members: [userId] });
    channel.isIm = true;
    channel.imUser = userId;
    return { channel, existed: false };
  }
}
