/** Slack's emoji short codes that Firebreak's replies use, as the characters Teams shows. */
const EMOJI: Record<string, string> = { rotating_light: '🚨' };

const MARKUP = /<(https?:\/\/[^|>\s]+)\|([^>]+)>|<@[^>]+>/g;

/** Teams markdown's own characters in plain text, escaped; Slack's `*bold*` becomes `**bold**`. */
function textPart(text: string): string {
  return text
    .replace(/([\\[\]#|~])/g, '\\$1')
    .replace(/(^|[\s(•])\*([^*\n]+)\*(?=$|[\s.,:;!?)])/gm, '$1**$2**')
    .replace(/:([a-z_]+):/g, (all, code: string) => EMOJI[code] ?? all);
}

/**
 * A reply the command logic wrote in Slack's mrkdwn (inbound/commands.ts and its helpers), as Teams
 * markdown: `*bold*` → `**bold**`, `<url|label>` → `[label](url)`, `<@id>` → the person's name,
 * `:short_code:` → the emoji. The replies escape people's text as Slack needs (`&`, `<`, `>` as
 * entities), which Teams shows as the characters; markdown characters in it are escaped here.
 */
export function slackReplyToTeams(text: string, personName: string): string {
  const who = personName ? `**${personName.replace(/[*_`\\[\]]/g, '\\$&')}**` : 'someone';
  let out = '';
  let last = 0;
  for (const match of text.matchAll(MARKUP)) {
    out += textPart(text.slice(last, match.index));
    out += match[1] ? `[${textPart(match[2]!)}](${match[1]})` : who;
    last = match.index + match[0].length;
  }
  return out + textPart(text.slice(last));
}
