import type { WebClient } from '@slack/web-api';
import type { PauseScope } from '../../outbound/rate-limit-pauses';

/**
 * What one 429 pauses in Slack: the method, workspace-wide, as Slack counts its tiers; for
 * `chat.postMessage`, which Slack paces per channel, only that channel, so one busy channel never holds
 * back the pages and posts of the others (docs/integrations/slack.md#rate-limits).
 */
function pauseScopeOf(method: string, args: unknown): PauseScope {
  const channel = (args as { channel?: unknown } | undefined)?.channel;
  return method === 'chat.postMessage' && typeof channel === 'string'
    ? { method, channelId: channel }
    : { method };
}

/** `client`, with every Web API method call run through `run` under its pause scope. */
export function gateSlackClient(
  client: WebClient,
  run: (scope: PauseScope, call: () => Promise<unknown>) => Promise<unknown>,
): WebClient {
  return gateMethods(client, [], (method, args, call) => run(pauseScopeOf(method, args), call));
}

type Gate = (method: string, args: unknown, call: () => Promise<unknown>) => Promise<unknown>;

/**
 * The Web API client's methods are grouped by the method's name (`client.conversations.create` is
 * `conversations.create`): each function found under a group is wrapped with its method's name.
 * `apiCall(method, args)` is wrapped too. The client's own code keeps its unwrapped self.
 */
function gateMethods<T extends object>(target: T, path: string[], gate: Gate): T {
  return new Proxy(target, {
    get(object, key) {
      const value = Reflect.get(object, key, object) as unknown;
      if (typeof key !== 'string') return value;
      if (typeof value === 'function') {
        const fn = value as (...args: unknown[]) => Promise<unknown>;
        if (path.length === 0 && key !== 'apiCall') return fn.bind(object);
        const method = path.length === 0 ? undefined : [...path, key].join('.');
        return (...args: unknown[]) =>
          method === undefined
            ? gate(String(args[0]), args[1], () => fn.apply(object, args))
            : gate(method, args[0], () => fn.apply(object, args));
      }
      if (value !== null && typeof value === 'object') return gateMethods(value, [...path, key], gate);
      return value;
    },
  });
}
