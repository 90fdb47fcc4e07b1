/**
 * Content types compared exactly (docs/api.md#requests), never by a pattern over the raw header: a
 * pattern such as `application/(.+\+)?json` also passes `application/x-www-form-urlencoded; x=+json`,
 * which an HTML form on any site can send. The media type is what comes before the first `;`
 * (parameters such as `charset` may follow), compared without case as RFC 9110 says.
 */

/** The header's media type, lower-cased and without parameters; '' when there is none. */
export function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

// RFC 6838's restricted-name characters, for the part before `+json`.
const structuredJson = /^application\/[a-z0-9][a-z0-9!#$&^_.+-]*\+json$/;

/** `application/json`, or a `+json` type such as `application/vnd.api+json`, with any parameters. */
export function isJsonContentType(header: string | undefined): boolean {
  const type = mediaTypeOf(header);
  return type === 'application/json' || structuredJson.test(type);
}
