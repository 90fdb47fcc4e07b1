import { z } from 'zod';

/**
 * The public status page (docs/status-page.md): components an admin defines, the updates people
 * publish about an incident, and what `/status`, `/status/feed.atom` and `GET /api/v1/status` show.
 */

/** Best first: the order `worstComponentStatus` compares in. */
export const componentStatuses = ['operational', 'degraded', 'partial_outage', 'major_outage'] as const;
export const ComponentStatus = z.enum(componentStatuses);
export type ComponentStatus = z.infer<typeof ComponentStatus>;

export const statusUpdateStatuses = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export const StatusUpdateStatus = z.enum(statusUpdateStatuses);
export type StatusUpdateStatus = z.infer<typeof StatusUpdateStatus>;

/** How long a resolved incident stays on the page after its last update. */
export const STATUS_PAGE_RESOLVED_DAYS = 7;

/**
 * Characters the page's Atom feed cannot carry (XML 1.0 allows no C0 control but tab, line feed and
 * carriage return, nor U+FFFE, U+FFFF or a surrogate without its pair). Refused in everything public
 * that people type, rather than silently changed.
 */
export const NOT_XML_TEXT =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const NOT_XML_MESSAGE =
  'must not contain control characters (other than tab and line breaks), U+FFFE, U+FFFF or unpaired surrogates';

/** Public text someone types: trimmed, within these lengths, and carried by HTML, JSON and XML alike. */
function publicText(max: number) {
  return z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max)
    .refine((text) => !NOT_XML_TEXT.test(text), NOT_XML_MESSAGE);
}

/** `status_page_title` when none was set. */
export const DEFAULT_STATUS_PAGE_TITLE = 'Service status';
export const StatusPageTitle = publicText(100);

/**
 * Which incidents a component follows: those with a linked alert carrying every one of these labels.
 * At least one pair: an empty match would follow every incident of the installation.
 */
export const ComponentMatch = z
  .record(z.string().min(1, 'a label name must not be empty').max(256), z.string().max(4096))
  .refine((labels) => Object.keys(labels).length >= 1, 'give at least one label')
  .refine((labels) => Object.keys(labels).length <= 20, 'at most 20 labels');
export type ComponentMatch = z.infer<typeof ComponentMatch>;

const componentName = publicText(100);
const componentGroup = z
  .string()
  .trim()
  .min(1, 'must not be empty; use null for no group')
  .max(100)
  .refine((text) => !NOT_XML_TEXT.test(text), NOT_XML_MESSAGE);
const position = z.number().int().min(-1_000_000).max(1_000_000);

export const CreateStatusComponentInput = z.strictObject({
  name: componentName,
  group: componentGroup.nullable().default(null),
  match: ComponentMatch,
  /** Order on the page, smallest first; after the others when not given. */
  position: position.optional(),
  /** Set by hand; null follows the incidents automatically. */
  status: ComponentStatus.nullable().default(null),
});
export type CreateStatusComponentInput = z.infer<typeof CreateStatusComponentInput>;

export const UpdateStatusComponentInput = z
  .strictObject({
    name: componentName.optional(),
    group: componentGroup.nullable().optional(),
    match: ComponentMatch.optional(),
    position: position.optional(),
    status: ComponentStatus.nullable().optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: 'give at least one of name, group, match, position, status',
  });
export type UpdateStatusComponentInput = z.infer<typeof UpdateStatusComponentInput>;

export const StatusComponent = z.object({
  id: z.uuid(),
  name: z.string(),
  group: z.string().nullable(),
  match: z.record(z.string(), z.string()),
  position: z.number().int(),
  /** Set by hand, or null: automatic. */
  status: ComponentStatus.nullable(),
  /** What the page shows now: `status` when set, else the one its open incidents give. */
  current_status: ComponentStatus,
  created_at: z.string(),
  updated_at: z.string(),
});
export type StatusComponent = z.infer<typeof StatusComponent>;

export const CreateStatusUpdateInput = z.strictObject({
  body: publicText(5000),
  status: StatusUpdateStatus,
  /** The incident's public heading from now on; without one ever given, the affected components name it. */
  title: publicText(200).optional(),
});
export type CreateStatusUpdateInput = z.infer<typeof CreateStatusUpdateInput>;

export const StatusUpdate = z.object({
  id: z.uuid(),
  status: StatusUpdateStatus,
  body: z.string(),
  created_at: z.string(),
  /** Who published it (console only; the public page never names anyone). */
  created_by: z.object({ id: z.uuid(), name: z.string() }).nullable(),
});
export type StatusUpdate = z.infer<typeof StatusUpdate>;

/** An incident's public updates, newest first, and how the page heads it. */
export const IncidentStatusUpdates = z.object({
  /** Null until the first update. */
  public_id: z.uuid().nullable(),
  title: z.string().nullable(),
  heading: z.string(),
  components: z.array(z.string()),
  updates: z.array(StatusUpdate),
});
export type IncidentStatusUpdates = z.infer<typeof IncidentStatusUpdates>;

export const PublicStatusUpdate = z.object({
  status: StatusUpdateStatus,
  body: z.string(),
  created_at: z.string(),
});

export const PublicIncident = z.object({
  /** Opaque: neither the incident's id nor its number. */
  id: z.uuid(),
  heading: z.string(),
  /** The latest update's status. */
  status: StatusUpdateStatus,
  components: z.array(z.string()),
  started_at: z.string(),
  updated_at: z.string(),
  /** Newest first. */
  updates: z.array(PublicStatusUpdate),
});
export type PublicIncident = z.infer<typeof PublicIncident>;

/** `GET /api/v1/status`: everything the public page shows, nothing more. */
export const PublicStatus = z.object({
  title: z.string(),
  status: ComponentStatus,
  components: z.array(z.object({ name: z.string(), group: z.string().nullable(), status: ComponentStatus })),
  incidents: z.array(PublicIncident),
  generated_at: z.string(),
});
export type PublicStatus = z.infer<typeof PublicStatus>;
