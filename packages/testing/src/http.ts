/**
 * A response body for assertions. Tests inspect bodies structurally with `expect`, so a loose type is
 * what they need; the assertions, not the type, say what the body must be.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above.
export type JsonBody = any;

export async function bodyOf(res: Response): Promise<JsonBody> {
  return res.json();
}
