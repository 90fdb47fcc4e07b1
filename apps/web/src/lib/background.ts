/**
 * Whether a request now is the console's own polling rather than something a person did. The API does
 * not count such requests as use of the session (docs/api.md#authentication), so a console left open
 * still reaches the idle timeout. A request counts as a person's when they pressed a key, clicked or
 * touched the page in the last few seconds: a navigation or a form is always that, and the 2.5 s
 * refetches of an untouched page never are.
 */
const RECENT_INTERACTION_MS = 5000;

let lastInteractionAt = Date.now();

if (typeof window !== 'undefined') {
  const mark = () => {
    lastInteractionAt = Date.now();
  };
  for (const event of ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const) {
    window.addEventListener(event, mark, { capture: true, passive: true });
  }
}

export function isBackgroundNow(): boolean {
  return Date.now() - lastInteractionAt > RECENT_INTERACTION_MS;
}

/** The header the API reads (`X-Firebreak-Background`). */
export const BACKGROUND_HEADER = 'x-firebreak-background';
