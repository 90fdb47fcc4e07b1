import type { ChatMarkup } from '../../outbound/messages';

/**
 * Teams' markdown (messages and Adaptive Card text): `**bold**`, `_italics_`, `[label](url)`. Text from
 * people and alert senders is made inert: markdown's characters are escaped with a backslash and `&`,
 * `<`, `>` as entities, since Teams also reads a subset of HTML (`<at>` mentions among it). People are
 * named, not mentioned: a Teams mention needs the person's id in the activity's entities, and a name
 * reads the same in the channel.
 */
export function escapeTeamsMarkdown(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]~#|])/g, '\\$1');
}

export const teamsMarkup: ChatMarkup = {
  escape: escapeTeamsMarkdown,
  bold: (text) => `**${text}**`,
  italic: (text) => `_${text}_`,
  // Only http(s) links become links: the URL is ours (PUBLIC_URL), never a sender's.
  link: (url, label) => `[${label}](${url.replace(/\)/g, '%29')})`,
  person: (person, fallback) => (person.name ? `**${escapeTeamsMarkdown(person.name)}**` : fallback),
};
