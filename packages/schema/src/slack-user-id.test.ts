// A user's chat id goes verbatim into mentions (`<@id>`): anything but a real id could carry markup
// such as `<!channel>` into chat, so the API refuses it where users are created and changed.
import { describe, expect, it } from 'vitest';
import { CreateUserInput, UpdateUserInput } from './oncall';

const user = { email: 'ann@example.test', name: 'Ann', role: 'member' };

describe('slack_user_id', () => {
  it('accepts chat user ids (U…, W… for Enterprise Grid) and null', () => {
    for (const id of ['U024BE7LH', 'W0123ABC', null]) {
      expect(CreateUserInput.safeParse({ ...user, slack_user_id: id }).success).toBe(true);
    }
    expect(UpdateUserInput.safeParse({ slack_user_id: ' U024BE7LH ' }).data).toEqual({
      slack_user_id: 'U024BE7LH',
    });
  });

  it('refuses anything else, naming the field', () => {
    for (const id of ['U1>|<!channel', '<!channel>', 'u024be7lh', 'C024BE7LH', 'U', '']) {
      const created = CreateUserInput.safeParse({ ...user, slack_user_id: id });
      expect(created.success).toBe(false);
      expect(created.error?.issues[0]?.path).toEqual(['slack_user_id']);
      expect(UpdateUserInput.safeParse({ slack_user_id: id }).success).toBe(false);
    }
  });
});
