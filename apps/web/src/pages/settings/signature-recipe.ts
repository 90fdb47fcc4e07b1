/**
 * How a sender signs the generic webhook (docs/integrations/alert-webhooks.md#generic):
 * `X-Service-Timestamp: <unix seconds>` and `X-Service-Signature: sha256=<hex>`, the hex being
 * HMAC-SHA256 of `<timestamp>.<raw body>` under the signing secret. The timestamped form is the one
 * shown: it is only accepted within 5 minutes, so a captured request cannot be replayed (the plain
 * HMAC of the body alone is still accepted, for senders set up before). The secret itself is never
 * shown again after saving, so the recipe reads it from `$SECRET`.
 */
export function signatureRecipe(baseUrl: string): string {
  const url = `${baseUrl.replace(/\/+$/, '')}/api/v1/webhooks/generic`;
  return [
    `body='{"alerts":[{"title":"Checkout 5xx above 2%","severity":"critical"}]}'`,
    'ts=$(date +%s)',
    `sig=$(printf '%s.%s' "$ts" "$body" | openssl dgst -sha256 -hmac "$SECRET" -hex | sed 's/^.* //')`,
    `curl -s ${url} -H 'content-type: application/json' \\`,
    `  -H "X-Service-Timestamp: $ts" -H "X-Service-Signature: sha256=$sig" -d "$body"`,
  ].join('\n');
}

/** A fresh random secret: 32 bytes as hex, well over the 16-character minimum. */
export function randomSecret(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
