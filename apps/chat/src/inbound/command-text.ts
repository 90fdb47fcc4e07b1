import { escapeMrkdwn } from './replies';

/** `/incident <subcommand> [argument]`, parsed (subcommands: docs/integrations/slack.md#commands). */
export type ParsedCommand =
  | { kind: 'new'; title: string }
  | { kind: 'acknowledge' }
  | { kind: 'resolve' }
  | { kind: 'lead' }
  | { kind: 'escalate' }
  | { kind: 'status' }
  | { kind: 'note'; text: string }
  | { kind: 'help' }
  | { kind: 'unknown'; word: string };

const aliases: Record<string, ParsedCommand['kind']> = {
  new: 'new',
  ack: 'acknowledge',
  acknowledge: 'acknowledge',
  resolve: 'resolve',
  lead: 'lead',
  escalate: 'escalate',
  status: 'status',
  note: 'note',
  help: 'help',
};

/** The first word names the subcommand (any case); the rest, as typed, is its argument. */
export function parseCommandText(text: string): ParsedCommand {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'help' };
  const match = /^(\S+)\s*([\s\S]*)$/.exec(trimmed)!;
  const word = match[1]!;
  const rest = match[2]!.trim();
  const kind = aliases[word.toLowerCase()];
  switch (kind) {
    case 'new':
      return { kind, title: rest };
    case 'note':
      return { kind, text: rest };
    case undefined:
      return { kind: 'unknown', word };
    default:
      return { kind } as ParsedCommand;
  }
}

/** Escaped as a whole: `<title>` would otherwise be read as Slack markup and vanish. */
export function helpText(command = '/incident'): string {
  const lines = [
    `*${command}* — work an incident from chat:`,
    `• \`${command} new <title>\` opens an incident (severity high; change it in Firebreak)`,
    `• \`${command} ack\` acknowledges this channel's incident`,
    `• \`${command} resolve\` resolves this channel's incident`,
    `• \`${command} lead\` makes you its lead (commander)`,
    `• \`${command} note <text>\` adds a note to its timeline`,
    `• \`${command} escalate\` pages the next tier of its escalation policy now`,
    `• \`${command} status\` shows its state, lead and latest timeline entries (only to you)`,
    `• \`${command} help\` shows this`,
    'ack, resolve, lead, note, escalate and status work inside an incident channel (#inc-<number>-…).',
  ];
  return escapeMrkdwn(lines.join('\n'));
}
