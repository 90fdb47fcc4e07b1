import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A throw-away RSA key and self-signed certificate, PEM (node cannot write X.509, openssl can). */
export async function makeSelfSignedCertificate(
  subject: string,
): Promise<{ certificate: string; key: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'firebreak-cert-'));
  try {
    const keyFile = join(dir, 'key.pem');
    const certificateFile = join(dir, 'cert.pem');
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-keyout',
      keyFile,
      '-out',
      certificateFile,
      '-subj',
      subject,
    ]);
    return { certificate: await readFile(certificateFile, 'utf8'), key: await readFile(keyFile, 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
