import type {
  ImportConflict,
  ImportIntegration,
  ImportSummary,
  ImportWarning,
  Role,
  RotationType,
  TargetType,
} from '@firebreak/schema';

/**
 * The import's plan: what to create from a Grafana OnCall organisation, and the answer's conflicts and
 * warnings (docs/import-oncall.md#the-answer). People are referred to by e-mail, since the users they mean
 * may only be created when the plan is carried out; the service turns e-mails into ids.
 */

/** What already exists in this service, as far as the import's rules ask. */
export interface ExistingRecords {
  users: ReadonlyArray<{ email: string; name: string; slack_user_id: string | null }>;
  scheduleNames: Iterable<string>;
  policyNames: Iterable<string>;
  /** Intake keys of the integrations that exist: an imported key that is taken is a conflict. */
  integrationKeys: Iterable<string>;
}

/** A participant or a tier's user: a user (created by the plan, or existing) or a bare name. */
export interface PlannedPerson {
  /** Lowercased e-mail of the user meant; null for a name without an account. */
  email: string | null;
  name: string;
}

export interface PlannedUser {
  sourceId: string;
  email: string;
  name: string;
  role: Role;
  slackUserId: string | null;
}

export interface PlannedLayer {
  name: string;
  orderIndex: number;
  rotationStart: Date;
  shiftDurationSeconds: number;
  rotationType: RotationType;
  participants: PlannedPerson[];
}

/** An OnCall `override` shift: one person on call for the window, above every layer. */
export interface PlannedOverride {
  /** The OnCall shift id: the same override imported again is not added twice. */
  sourceId: string;
  person: PlannedPerson & { email: string };
  startsAt: Date;
  endsAt: Date;
}

export interface PlannedSchedule {
  sourceId: string;
  name: string;
  timezone: string;
  layers: PlannedLayer[];
  /** The OnCall import's overrides; the other importers leave overrides out. */
  overrides?: PlannedOverride[];
}

export interface PlannedTier {
  targetType: TargetType;
  /** Empty for a schedule tier. */
  users: PlannedPerson[];
  /** The created schedule a schedule tier pages. */
  schedule: { sourceId: string; name: string } | null;
  timeoutSeconds: number;
}

export interface PlannedPolicy {
  sourceId: string;
  name: string;
  description: string;
  enabled: boolean;
  tiers: PlannedTier[];
  /** How many more times the tiers run (Opsgenie's `repeat.count`, PagerDuty's `num_loops`); 0 when absent. */
  repeat?: number;
}

/**
 * An integration to create with the source's own key (a PagerDuty integration key, an Opsgenie API
 * key), so that its senders only change the host they post to.
 */
export interface PlannedKeyedIntegration {
  /** The source's integration id; links the answer's `integrations` entry to the created record. */
  sourceId: string;
  name: string;
  type: 'pagerduty' | 'opsgenie';
  key: string;
  /** False when the source has it switched off: created disabled, so that importing turns nothing on. */
  enabled: boolean;
  /** The source id of an imported policy the integration escalates with, when there is one. */
  escalationPolicySourceId?: string | null;
}

/**
 * A row of the answer's `integrations`: where to point a sender. The id of the integration created for
 * it is only known once written, so the plan names the keyed integration by its `sourceId`.
 */
export type PlannedIntegrationEntry = Omit<ImportIntegration, 'integration_id'> & {
  keyedSourceId?: string;
};

export interface ImportPlan {
  users: PlannedUser[];
  schedules: PlannedSchedule[];
  escalationPolicies: PlannedPolicy[];
  /** Without those whose key is taken here (those are among the conflicts). */
  keyedIntegrations: PlannedKeyedIntegration[];
  conflicts: ImportConflict[];
  warnings: ImportWarning[];
  integrations: PlannedIntegrationEntry[];
  summary: ImportSummary;
}

/** What a step of the mapping adds to the answer besides its records. */
export interface Findings {
  conflicts: ImportConflict[];
  warnings: ImportWarning[];
}
