import { isValidTimeZone, parseZonedDateTime, upcomingShifts } from '@firebreak/domain/browser';
import type { CreateScheduleInput, Schedule, User } from '@firebreak/schema';
import { rowKey } from '../../lib/list-edit';
import type { Shift } from './shift-window';

/**
 * The schedule editor's fields, the request they make and the preview they draw. A rotation start is
 * typed as wall-clock time in the schedule's own zone (the way the team says "Mondays at 09:00 Berlin
 * time"), and sent without an offset, which the API reads in that zone too; the preview reads it with
 * the same domain function, so what the editor shows is what the pager will do. Layers are listed
 * lowest precedence first: where two have someone on call, the one further down the list wins.
 */

export type LengthPreset = 'daily' | 'weekly' | 'custom';

export interface ParticipantRow {
  key: string;
  /** Null for a name in the rotation without an account (kept as it was imported). */
  userId: string | null;
  name: string;
}

export interface LayerForm {
  key: string;
  name: string;
  /** `YYYY-MM-DDTHH:mm`, wall-clock time in the schedule's zone. */
  rotationStart: string;
  preset: LengthPreset;
  customHours: string;
  participants: ParticipantRow[];
  /**
   * The saved rotation start of a loaded layer. The field shows it to the minute and cannot tell the
   * two occurrences of a wall time a DST change repeats apart, so while the field and the zone are as
   * loaded, this exact instant is what is sent back: saving other changes never moves the rotation.
   */
  saved?: { wall: string; zone: string; instant: string };
}

export interface ScheduleForm {
  name: string;
  timezone: string;
  layers: LayerForm[];
}

const DAY = 86_400;
const WEEK = 7 * DAY;
const MAX_SECONDS = 366 * DAY;
export const PREVIEW_DAYS = 14;
/** Enough for an hourly rotation over the preview's two weeks. */
const PREVIEW_MAX_SHIFTS = 500;

/** The wall-clock time an instant shows in `zone`, as a `datetime-local` value. */
export function wallTimeIn(zone: string, instant: Date): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}`;
}

/** The browser's own zone: the likeliest answer for a new schedule. */
export function browserTimeZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isValidTimeZone(zone) ? zone : 'UTC';
}

/** Every zone the browser knows, for the picker; the input still accepts any valid IANA name. */
export function knownTimeZones(): string[] {
  const supported = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf;
  const zones = supported ? supported('timeZone') : [];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

function presetOf(seconds: number): Pick<LayerForm, 'preset' | 'customHours'> {
  if (seconds === DAY) return { preset: 'daily', customHours: '24' };
  if (seconds === WEEK) return { preset: 'weekly', customHours: '168' };
  return { preset: 'custom', customHours: String(seconds / 3600) };
}

/** A new layer: weekly from next Monday 09:00 is how most teams start. */
export function emptyLayer(now: Date, zone: string, index: number): LayerForm {
  // The zone field may hold half a name while someone types; today's date in UTC is close enough then.
  const wall = wallTimeIn(isValidTimeZone(zone) ? zone : 'UTC', now).slice(0, 10);
  const date = new Date(`${wall}T00:00:00Z`);
  const untilMonday = (8 - date.getUTCDay()) % 7 || 7;
  date.setUTCDate(date.getUTCDate() + untilMonday);
  return {
    key: rowKey(),
    name: index === 0 ? 'Primary' : `Layer ${index + 1}`,
    rotationStart: `${date.toISOString().slice(0, 10)}T09:00`,
    preset: 'weekly',
    customHours: '168',
    participants: [],
  };
}

export function emptyScheduleForm(now: Date, zone = browserTimeZone()): ScheduleForm {
  return { name: '', timezone: zone, layers: [emptyLayer(now, zone, 0)] };
}

export function formOfSchedule(schedule: Schedule): ScheduleForm {
  return {
    name: schedule.name,
    timezone: schedule.timezone,
    // The API lists lowest order_index first, which is the form's order too.
    layers: [...schedule.layers]
      .sort((a, b) => a.order_index - b.order_index)
      .map((layer) => {
        const wall = wallTimeIn(schedule.timezone, new Date(layer.rotation_start));
        return {
          key: rowKey(),
          name: layer.name,
          rotationStart: wall,
          ...presetOf(layer.shift_duration_seconds),
          participants: layer.participants.map((p) => ({ key: rowKey(), userId: p.user_id, name: p.name })),
          saved: { wall, zone: schedule.timezone, instant: layer.rotation_start },
        };
      }),
  };
}

export function participantOf(user: Pick<User, 'id' | 'name'>): ParticipantRow {
  return { key: rowKey(), userId: user.id, name: user.name };
}

/** Seconds per turn, or why the layer's length is not one. */
export function shiftSecondsOf(layer: LayerForm): number | string {
  if (layer.preset === 'daily') return DAY;
  if (layer.preset === 'weekly') return WEEK;
  const hours = Number(layer.customHours);
  const seconds = Math.round(hours * 3600);
  if (!layer.customHours.trim() || !Number.isFinite(hours) || seconds < 60) {
    return `Layer “${layer.name || 'unnamed'}”: give the rotation length in hours (at least one minute).`;
  }
  if (seconds > MAX_SECONDS) return `Layer “${layer.name || 'unnamed'}”: a turn can last at most 366 days.`;
  return seconds;
}

const wallPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

/** The saved instant, while the field and the zone still show it unedited. */
function unedited(layer: LayerForm, zone: string): string | undefined {
  const saved = layer.saved;
  return saved && saved.wall === layer.rotationStart && saved.zone === zone ? saved.instant : undefined;
}

/** The rotation start as an instant in the schedule's zone, or why it is not one. */
export function rotationStartOf(layer: LayerForm, zone: string): Date | string {
  const saved = unedited(layer, zone);
  if (saved) return new Date(saved);
  const problem = `Layer “${layer.name || 'unnamed'}”: give the rotation start as a date and time.`;
  if (!wallPattern.test(layer.rotationStart)) return problem;
  try {
    const start = parseZonedDateTime(layer.rotationStart, zone);
    return Number.isNaN(start.getTime()) ? problem : start;
  } catch {
    return problem;
  }
}

export function scheduleInputOf(form: ScheduleForm): { input: CreateScheduleInput } | { error: string } {
  const name = form.name.trim();
  if (!name) return { error: 'Give the schedule a name.' };
  const timezone = form.timezone.trim();
  if (!isValidTimeZone(timezone) || !/^[A-Za-z]/.test(timezone)) {
    return { error: `“${timezone}” is not an IANA time zone such as Europe/Berlin or UTC.` };
  }
  const layers: CreateScheduleInput['layers'] = [];
  for (const [index, layer] of form.layers.entries()) {
    const seconds = shiftSecondsOf(layer);
    if (typeof seconds === 'string') return { error: seconds };
    const start = rotationStartOf(layer, timezone);
    if (typeof start === 'string') return { error: start };
    layers.push({
      name: layer.name.trim() || `Layer ${index + 1}`,
      order_index: index,
      rotation_start: unedited(layer, timezone) ?? layer.rotationStart,
      shift_duration_seconds: seconds,
      ...(layer.preset === 'custom' ? {} : { rotation_type: layer.preset }),
      participants: layer.participants.map((p) =>
        p.userId ? { user_id: p.userId } : { user_id: null, name: p.name },
      ),
    });
  }
  return { input: { name, timezone, layers } };
}

/**
 * Who would be on call over the next two weeks if the form were saved, computed by the same rotation
 * maths as the server; or why the form cannot be drawn yet.
 */
export function previewOf(form: ScheduleForm, from: Date): { shifts: Shift[]; to: Date } | { error: string } {
  const made = scheduleInputOf({ ...form, name: form.name || 'preview' });
  if ('error' in made) return made;
  const to = new Date(from.getTime() + PREVIEW_DAYS * DAY * 1000);
  const rotation = {
    timezone: made.input.timezone,
    layers: form.layers.map((layer, index) => ({
      name: made.input.layers[index]!.name,
      order_index: index,
      rotation_start: rotationStartOf(layer, made.input.timezone) as Date,
      shift_duration_seconds: made.input.layers[index]!.shift_duration_seconds,
      participants: layer.participants,
    })),
  };
  const shifts: Shift[] = [];
  for (const shift of upcomingShifts(rotation, from, PREVIEW_MAX_SHIFTS)) {
    if (shift.start >= to) break;
    const last = shifts.at(-1);
    // One person's back-to-back turns in a layer are one stretch on call, as the server lists them.
    if (
      last &&
      last.name === shift.participant.name &&
      last.layer === shift.layer.name &&
      +last.end === +shift.start
    ) {
      last.end = shift.end;
      continue;
    }
    shifts.push({
      name: shift.participant.name,
      layer: shift.layer.name,
      start: shift.start,
      end: shift.end,
    });
  }
  return { shifts, to };
}
