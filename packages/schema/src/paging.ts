import { z } from 'zod';

// Personal paging (docs/paging.md): contact methods, notification rules, what the server offers.

export const notificationMethods = ['chat', 'email', 'sms', 'voice', 'push', 'telegram'] as const;
export const NotificationMethod = z.enum(notificationMethods);
export type NotificationMethod = z.infer<typeof NotificationMethod>;

export const contactMethodTypes = ['email', 'sms', 'voice', 'push', 'telegram'] as const;
export const ContactMethodType = z.enum(contactMethodTypes);
export type ContactMethodType = z.infer<typeof ContactMethodType>;

/** E.164: a plus, then up to 15 digits, the first not 0. */
const e164 = z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 number, such as +14155550100');

/**
 * A Telegram chat id (docs/telegram.md#finding-a-chat-id): an integer, as a string; a person's own chat
 * with the bot is positive, a group's negative (a supergroup's starts with -100).
 */
export const telegramChatId = z
  .string()
  .trim()
  .regex(
    /^-?[1-9]\d{0,19}$/,
    'must be a Telegram chat id: an integer such as 123456789, negative for groups',
  );

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The worker POSTs every push page to the endpoint, so a member could otherwise point it at an internal
 * address. Push services are all `https:` at public names; plain `http:` only to this machine (a local
 * push service in development and the tests' fake), and no IP address of a private, shared, link-local
 * (cloud metadata), loopback or reserved range. A name is checked again when a page is sent, against
 * the addresses it resolves to then (docs/paging.md#contact-methods).
 */
const pushEndpoint = z
  .url({ protocol: /^https?$/ })
  .max(2000)
  .refine((value) => {
    // Judges only what the URL check above let through: another scheme or no URL is refused there.
    const url = URL.canParse(value) ? new URL(value) : undefined;
    return url?.protocol !== 'http:' || LOOPBACK_HOSTS.has(url.hostname);
  }, 'must be an https:// URL (http:// only for localhost, 127.0.0.1 or [::1])')
  .refine((value) => {
    const url = URL.canParse(value) ? new URL(value) : undefined;
    // http: to another host is refused above, once.
    return url?.protocol !== 'https:' || isAllowedPushHost(url.hostname);
  }, 'must not be a private, link-local, loopback or reserved IP address');

/** Whether a push endpoint on this host may be used (loopback only by its usual names, for tests). */
export function isAllowedPushHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || !isInternalAddress(hostname);
}

/**
 * Whether `host` (an IP address, IPv6 with or without brackets; a name is never one) is in a range that
 * is not the public internet: this host (0/8, ::), private (10/8, 172.16/12, 192.168/16, fc00::/7),
 * shared (100.64/10), loopback (127/8, ::1), link-local where cloud metadata answers (169.254/16,
 * fe80::/10), benchmarking and protocol (198.18/15, 192.0.0/24), multicast and reserved (224/3,
 * ff00::/8). An IPv4 address inside IPv6 (::ffff:a.b.c.d, 64:ff9b::/96) is judged as IPv4.
 */
export function isInternalAddress(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const v4 = ipv4Bytes(bare);
  if (v4) return internalV4(v4);
  const v6 = ipv6Bytes(bare);
  if (!v6) return false;
  const head = v6.slice(0, 12);
  const mapped = head.every((b, i) => (i < 10 ? b === 0 : b === 0xff));
  const nat64 = [0, 0x64, 0xff, 0x9b].every((b, i) => v6[i] === b) && head.slice(4).every((b) => b === 0);
  const compatible = head.every((b) => b === 0) && (v6[12]! | v6[13]!) !== 0;
  if (mapped || nat64 || compatible) return internalV4(v6.slice(12));
  if (v6.every((b, i) => b === 0 || (i === 15 && b === 1))) return true; // :: and ::1
  return (v6[0]! & 0xfe) === 0xfc || (v6[0] === 0xfe && (v6[1]! & 0xc0) === 0x80) || v6[0] === 0xff;
}

function internalV4([a, b, c]: number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    a! >= 224 ||
    (a === 100 && b! >= 64 && b! < 128) ||
    (a === 169 && b === 254) ||
    (a === 172 && b! >= 16 && b! < 32) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && c === 0) ||
    (a === 198 && (b === 18 || b === 19))
  );
}

function ipv4Bytes(host: string): number[] | undefined {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.map(Number);
}

function ipv6Bytes(host: string): number[] | undefined {
  if (!host.includes(':') || !/^[0-9a-f:.]+$/i.test(host)) return undefined;
  let text = host;
  const tail: number[] = [];
  const dotted = /:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = ipv4Bytes(dotted[1]!);
    if (!v4) return undefined;
    tail.push(...v4);
    text = `${text.slice(0, dotted.index)}:0:0`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const left = groups(halves[0]);
  const right = groups(halves[1]);
  const fill = 8 - left.length - right.length;
  if (halves.length === 1 ? fill !== 0 : fill < 0) return undefined;
  const all = [...left, ...Array<string>(Math.max(fill, 0)).fill('0'), ...right];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return undefined;
  const bytes = all.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** What a browser's `PushSubscription.toJSON()` gives. */
export const PushSubscriptionInput = z.object({
  endpoint: pushEndpoint,
  keys: z.object({
    p256dh: z.string().regex(/^[A-Za-z0-9_-]{20,200}={0,2}$/, 'must be base64url'),
    auth: z.string().regex(/^[A-Za-z0-9_-]{8,100}={0,2}$/, 'must be base64url'),
  }),
});
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionInput>;

const label = z.string().trim().min(1).max(100).optional();

export const CreateContactMethodInput = z.discriminatedUnion('type', [
  z.object({ type: z.literal('email'), address: z.email().max(320), label }),
  z.object({ type: z.literal('sms'), address: e164, label }),
  z.object({ type: z.literal('voice'), address: e164, label }),
  z.object({ type: z.literal('push'), subscription: PushSubscriptionInput, label }),
  z.object({ type: z.literal('telegram'), address: telegramChatId, label }),
]);
export type CreateContactMethodInput = z.infer<typeof CreateContactMethodInput>;

export const ContactMethod = z.object({
  id: z.uuid(),
  type: ContactMethodType,
  /** The address or number; for push, the push service's origin only (the endpoint is a credential). */
  address: z.string(),
  label: z.string().nullable(),
  verified: z.boolean(),
  verified_at: z.string().nullable(),
  /** Why the method is no longer used (the push subscription expired), or null. */
  disabled_reason: z.string().nullable(),
  created_at: z.string(),
});
export type ContactMethod = z.infer<typeof ContactMethod>;

export const ContactMethodList = z.object({ contact_methods: z.array(ContactMethod) });

export const VerifyContactMethodInput = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'must be the 6 digits that were sent'),
});

export const NotificationRule = z.object({
  method: NotificationMethod,
  delay_minutes: z.number().int().min(0).max(1440),
  contact_method_id: z.uuid().nullable().optional(),
});
export type NotificationRule = z.infer<typeof NotificationRule>;

export const NotificationRulesInput = z.object({ rules: z.array(NotificationRule).max(20) });
export type NotificationRulesInput = z.infer<typeof NotificationRulesInput>;

export const NotificationRules = z.object({
  rules: z.array(
    z.object({
      method: NotificationMethod,
      delay_minutes: z.number().int(),
      contact_method_id: z.uuid().nullable(),
    }),
  ),
  /** True when the person set no rules and the default (a chat message at once) applies. */
  default: z.boolean(),
  /**
   * Read only (GET): true when chat is not among the rules and none of them reaches a usable contact
   * method any more (removed or disabled since); a step then sends the person its chat message.
   */
  reaches_nothing: z.boolean().optional(),
});
export type NotificationRules = z.infer<typeof NotificationRules>;

export const PagingMethods = z.object({
  /** The methods this server can send, in the order of `notificationMethods`. */
  methods: z.array(NotificationMethod),
  /** The VAPID public key a browser subscribes with; null when push is not configured. */
  vapid_public_key: z.string().nullable(),
});
export type PagingMethods = z.infer<typeof PagingMethods>;

/** What send-code and test answer: the message is on its way (or, for push, nothing to verify). */
export const ContactMethodActionResult = z.object({ status: z.enum(['queued', 'verified']) });
