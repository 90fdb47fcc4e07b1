import { AppError } from '@firebreak/schema';

const TTL_MS = 24 * 60 * 60 * 1000;
const MAX_ENTRIES = 50;
const FETCH_TIMEOUT_MS = 5000;

/**
 * SNS signing certificates, fetched once per URL and kept a day (AWS rotates them rarely, and a
 * delivery burst must not mean a certificate download per message). The URL has been checked against
 * SNS_CERT_URL_PATTERN before it gets here.
 */
export class SnsCertificateCache {
  private readonly entries = new Map<string, { pem: string; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async get(url: string): Promise<string> {
    const cached = this.entries.get(url);
    if (cached && this.now() - cached.at < TTL_MS) return cached.pem;
    const pem = await download(url);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(url, { pem, at: this.now() });
    return pem;
  }
}

async function download(url: string): Promise<string> {
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'error' });
    text = await res.text();
  } catch (error) {
    // SNS retries 5xx: a certificate host that is briefly unreachable must not lose the message.
    throw new AppError(
      'service_unavailable',
      `Could not fetch the SNS signing certificate: ${String(error)}`,
      {
        retry_after_seconds: 20,
      },
    );
  }
  if (!res.ok || !text.includes('-----BEGIN CERTIFICATE-----')) {
    throw new AppError('service_unavailable', `The SNS signing certificate URL answered ${res.status}.`, {
      retry_after_seconds: 20,
    });
  }
  return text;
}
