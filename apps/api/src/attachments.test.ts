// Incident attachments (docs/attachments.md) through the API with real PostgreSQL: the upload's limits
// and sniffing, the download's headers, who may do what, and the timeline.
import { createHash, randomUUID } from 'node:crypto';
import { oneUserPerRole, startTestApp, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
import { bodyOf, type JsonBody, type TestClient } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

let runtime: TestRuntime;
let app: ReturnType<typeof createApp>;
let api: TestClient;
let admin: TestUser;
let member: TestUser;
let viewer: TestUser;
let other: TestUser;

beforeAll(async () => {
  ({
    runtime,
    app,
    api,
    users: { admin, member, viewer, other },
  } = await startTestApp(createApp, {
    users: { ...oneUserPerRole, other: { role: 'member', name: 'Otto Other' } },
    // Room for several uploads held open at once beside the requests the tests make meanwhile.
    env: { DB_MAX_OPEN_CONNS: '12' },
  }));
});
afterAll(() => runtime.cleanup());

const MiB = 1024 * 1024;
// A valid 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');

interface Part {
  name?: string;
  filename?: string;
  type?: string;
  data: Uint8Array | string;
}

/** A multipart/form-data body written by hand, so the test controls every byte a client could send. */
function multipart(parts: Part[]) {
  const boundary = `----firebreak-test-${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name ?? 'file'}"${filename}\r\n` +
          `Content-Type: ${part.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      Buffer.from(part.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

const path = (incident: JsonBody, rest = '') => `/api/v1/incidents/${incident.id}/attachments${rest}`;

async function upload(incident: JsonBody | string, parts: Part[] | Part, token = member.token) {
  const { body, type } = multipart(Array.isArray(parts) ? parts : [parts]);
  const target = typeof incident === 'string' ? incident : path(incident);
  const res = await app.request(target, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': type },
    body,
  });
  return { status: res.status, body: await bodyOf(res) };
}
async function uploaded(incident: JsonBody, part: Part, token = member.token): Promise<JsonBody> {
  const res = await upload(incident, part, token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
/** Read to the end, as a browser does: a download holds a transfer slot until its body is sent. */
async function download(incident: JsonBody, id: string, token = viewer.token): Promise<Response> {
  const res = await api('GET', path(incident, `/${id}`), { token });
  const bytes = await res.arrayBuffer();
  return new Response(bytes.byteLength ? bytes : null, {
    status: res.status,
    headers: res.headers,
  });
}
const remove = (incident: JsonBody, id: string, token: string) =>
  api('DELETE', path(incident, `/${id}`), { token });
async function list(incident: JsonBody): Promise<JsonBody[]> {
  const res = await api('GET', path(incident), { token: viewer.token });
  expect(res.status).toBe(200);
  return (await bodyOf(res)).items;
}
async function openIncident(): Promise<JsonBody> {
  const res = await api('POST', '/api/v1/incidents', {
    token: member.token,
    body: { title: 'Checkout is down', severity: 'critical' },
  });
  expect(res.status).toBe(201);
  return bodyOf(res);
}
async function entries(incident: JsonBody, type: string): Promise<JsonBody[]> {
  const res = await api('GET', `/api/v1/incidents/${incident.id}/timeline`, { token: viewer.token });
  return (await bodyOf(res)).entries.filter((e: JsonBody) => e.type === type);
}
async function storedCount(): Promise<{ meta: number; data: number }> {
  const [row] = await runtime.sql<{ meta: number; data: number }[]>`
    select (select count(*)::int from incident_attachments) as meta,
           (select count(*)::int from incident_attachment_data) as data`;
  return row!;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('uploading, listing and downloading', () => {
  it('round-trips the bytes exactly, with the sniffed type and the download headers', async () => {
    const incident = await openIncident();
    const bytes = Buffer.concat([PNG, Buffer.from([0, 1, 2, 255, 254, 0x0d, 0x0a])]);
    const created = await uploaded(incident, { filename: 'pixel.png', type: 'image/png', data: bytes });
    expect(created).toEqual({
      id: expect.any(String),
      incident_id: incident.id,
      filename: 'pixel.png',
      content_type: 'image/png',
      size: bytes.length,
      sha256: sha256(bytes),
      uploaded_by: { id: member.id, name: 'Mia Member' },
      created_at: expect.any(String),
    });
    expect(await list(incident)).toEqual([created]);

    const res = await download(incident, created.id);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="pixel.png"; filename*=UTF-8''pixel.png`,
    );
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe('sandbox');
  });

  it('lists newest first, by incident number too, and never reads the bytes into the list', async () => {
    const incident = await openIncident();
    const first = await uploaded(incident, { filename: 'one.txt', data: 'first' });
    const second = await uploaded(incident, { filename: 'two.txt', data: 'second' });
    const items = await list(incident);
    expect(items.map((a) => a.id)).toEqual([second.id, first.id]);
    expect(items.every((a) => !('data' in a))).toBe(true);
    const byNumber = await api('GET', `/api/v1/incidents/${incident.number}/attachments`, {
      token: viewer.token,
    });
    expect((await bodyOf(byNumber)).items.map((a: JsonBody) => a.id)).toEqual([second.id, first.id]);
    const file = await api('GET', `/api/v1/incidents/${incident.number}/attachments/${first.id}`, {
      token: viewer.token,
    });
    expect(await file.text()).toBe('first');
  });

  it('writes an attachment_added entry naming who uploaded what', async () => {
    const incident = await openIncident();
    const created = await uploaded(incident, { filename: 'notes.txt', data: 'db failover at 12:03' });
    const [entry] = await entries(incident, 'attachment_added');
    expect(entry).toMatchObject({
      actor: { type: 'user', id: member.id, name: 'Mia Member' },
      data: { attachment_id: created.id, filename: 'notes.txt', size: 20, content_type: 'text/plain' },
    });
  });
});

describe('content types are sniffed from the bytes', () => {
  it('serves a PNG declared as text/html as image/png', async () => {
    const incident = await openIncident();
    const created = await uploaded(incident, { filename: 'page.html', type: 'text/html', data: PNG });
    expect(created.content_type).toBe('image/png');
    expect((await download(incident, created.id)).headers.get('content-type')).toBe('image/png');
  });

  it('never serves HTML declared as image/png as HTML: it is text, and the browser may not sniff it', async () => {
    const incident = await openIncident();
    const created = await uploaded(incident, { filename: 'cat.png', type: 'image/png', data: HTML });
    expect(created.content_type).toBe('text/plain');
    const res = await download(incident, created.id);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-type')).not.toContain('html');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe('sandbox');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(Buffer.from(await res.arrayBuffer()).equals(HTML)).toBe(true);
  });

  it('keeps XML and SVG, which a browser would run script in, as text', async () => {
    const incident = await openIncident();
    const svg =
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const created = await uploaded(incident, { filename: 'x.svg', type: 'image/svg+xml', data: svg });
    expect(created.content_type).toBe('text/plain');
  });

  it('calls bytes that are neither a known format nor UTF-8 text application/octet-stream', async () => {
    const incident = await openIncident();
    const binary = await uploaded(incident, {
      filename: 'dump.bin',
      type: 'text/plain',
      data: Buffer.from([0x00, 0x9f, 0x92, 0x96, 0xff, 0x00, 0x10]),
    });
    expect(binary.content_type).toBe('application/octet-stream');
    // Valid UTF-8 with a NUL is not text either.
    const nul = await uploaded(incident, { filename: 'nul.txt', type: 'text/plain', data: 'a\u0000b' });
    expect(nul.content_type).toBe('application/octet-stream');
    const utf8 = await uploaded(incident, { filename: 'émoji.txt', data: 'Grüße 🔥 from the pager' });
    expect(utf8.content_type).toBe('text/plain');
  });
});

describe('file names', () => {
  it('drops the path and control characters, keeps quotes, and downloads with a safe header', async () => {
    const incident = await openIncident();
    const created = await uploaded(incident, {
      // How browsers write a quote in a part's filename (WHATWG multipart/form-data encoding).
      filename: '..\\..\\windows/../etc/my %22report%22\u0007 (final)\u202e.txt',
      data: 'report',
    });
    expect(created.filename).toBe('my "report" (final).txt');
    const res = await download(incident, created.id);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="my _report_ (final).txt"; filename*=UTF-8''my%20%22report%22%20%28final%29.txt`,
    );
  });

  it('gives non-ASCII names an ASCII fallback and the real name as filename*', async () => {
    const incident = await openIncident();
    const created = await uploaded(incident, { filename: 'Störung – Übersicht.txt', data: 'x' });
    expect(created.filename).toBe('Störung – Übersicht.txt');
    const disposition = (await download(incident, created.id)).headers.get('content-disposition');
    expect(disposition).toBe(
      `attachment; filename="St_rung _ _bersicht.txt"; filename*=UTF-8''St%C3%B6rung%20%E2%80%93%20%C3%9Cbersicht.txt`,
    );
  });

  it('names a file without a usable name after its sniffed type, and shortens long names to 255 bytes', async () => {
    const incident = await openIncident();
    expect((await uploaded(incident, { filename: '../..', data: PNG })).filename).toBe('attachment.png');
    expect((await uploaded(incident, { filename: '', data: 'text' })).filename).toBe('attachment.txt');
    const long = await uploaded(incident, { filename: `${'ü'.repeat(300)}.log`, data: 'x' });
    expect(Buffer.byteLength(long.filename)).toBeLessThanOrEqual(255);
    expect(long.filename).toBe(`${'ü'.repeat(125)}.log`);
  });
});

describe('active extensions', () => {
  it('appends .txt to text stored under a name a browser or script host would run', async () => {
    const incident = await openIncident();
    const named = async (filename: string, data: Uint8Array | string) =>
      (await uploaded(incident, { filename, data })).filename;
    expect(await named('report.html', HTML)).toBe('report.html.txt');
    expect(await named('Page.HTM', HTML)).toBe('Page.HTM.txt');
    expect(await named('x.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>')).toBe('x.svg.txt');
    for (const ext of ['xhtml', 'xml', 'js', 'mjs', 'mht', 'mhtml']) {
      expect(await named(`f.${ext}`, 'alert(1)')).toBe(`f.${ext}.txt`);
    }
    const long = await named(`${'a'.repeat(300)}.html`, HTML);
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(255);
    expect(long.endsWith('.txt')).toBe(true);
    // Names of other text, and of recognised formats, are kept.
    expect(await named('notes.txt', 'notes')).toBe('notes.txt');
    expect(await named('html.log', HTML)).toBe('html.log');
    expect(await named('pixel.png', PNG)).toBe('pixel.png');
  });
});

describe('limits', () => {
  it('accepts exactly 10 MiB', async () => {
    const incident = await openIncident();
    const bytes = Buffer.alloc(10 * MiB, 'a');
    const created = await uploaded(incident, { filename: 'big.log', data: bytes });
    expect(created.size).toBe(10_485_760);
    const res = await download(incident, created.id);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('refuses 10 MiB + 1 byte with 413 and stores nothing', async () => {
    const incident = await openIncident();
    const before = await storedCount();
    const res = await upload(incident, { filename: 'big.log', data: Buffer.alloc(10 * MiB + 1, 'a') });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({
      code: 'payload_too_large',
      message: expect.stringMatching(/10 MiB/),
    });
    expect(await storedCount()).toEqual(before);
    expect(await list(incident)).toEqual([]);
    expect(await entries(incident, 'attachment_added')).toEqual([]);
  });

  it('refuses a larger body before reading it: by its Content-Length, or once the stream passes the limit', async () => {
    const incident = await openIncident();
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const streamed = await app.request(path(incident), {
      method: 'POST',
      headers: { authorization: `Bearer ${member.token}`, 'content-type': 'multipart/form-data; boundary=x' },
      body: endless,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect((await bodyOf(streamed)).error.code).toBe('payload_too_large');
    // Read up to the route's limit (10 MiB and the multipart framing), and not a chunk further.
    expect(pulled).toBeLessThan(11 * MiB);

    let read = 0;
    const declared = await app.request(path(incident), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${member.token}`,
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(50 * MiB),
      },
      body: new ReadableStream<Uint8Array>({
        pull(controller) {
          read += 1;
          controller.enqueue(new Uint8Array(1024));
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(declared.status).toBe(413);
    expect(read).toBeLessThanOrEqual(1);
    expect(await list(incident)).toEqual([]);
  });

  it('keeps the 256 KiB limit of every other API route', async () => {
    const big = JSON.stringify({ title: 'x', severity: 'low', description: 'y'.repeat(300 * 1024) });
    const res = await api('POST', '/api/v1/incidents', { token: member.token, body: big });
    expect(res.status).toBe(413);
    // Not even another method on the upload's own path.
    const incident = await openIncident();
    const put = await app.request(path(incident), {
      method: 'PUT',
      headers: { authorization: `Bearer ${member.token}`, 'content-type': 'application/json' },
      body: 'z'.repeat(300 * 1024),
    });
    expect(put.status).toBe(413);
  });

  it('holds at most 100 files per incident (409), and takes more once one is deleted', async () => {
    const incident = await openIncident();
    let last: JsonBody;
    for (let i = 0; i < 100; i++) last = await uploaded(incident, { filename: `f${i}.txt`, data: `${i}` });
    const refused = await upload(incident, { filename: 'one-more.txt', data: 'no' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'conflict', message: expect.stringContaining('100') });
    expect(await list(incident)).toHaveLength(100);
    expect((await remove(incident, last!.id, member.token)).status).toBe(204);
    await uploaded(incident, { filename: 'one-more.txt', data: 'yes' });
  });
});

describe('bad requests', () => {
  it('answers 415 for a body that is not multipart, and 400 without exactly one non-empty file', async () => {
    const incident = await openIncident();
    const json = await api('POST', path(incident), { token: member.token, body: { file: 'x' } });
    expect(json.status).toBe(415);
    expect((await bodyOf(json)).error.code).toBe('unsupported_media_type');

    const noFile = await upload(incident, { name: 'other', filename: 'a.txt', data: 'a' });
    expect(noFile.status).toBe(400);
    expect(noFile.body.error).toMatchObject({ code: 'validation_failed', details: [{ path: 'file' }] });
    const field = await upload(incident, { name: 'file', data: 'not a file' });
    expect(field.status).toBe(400);
    const two = await upload(incident, [
      { filename: 'a.txt', data: 'a' },
      { filename: 'b.txt', data: 'b' },
    ]);
    expect(two.status).toBe(400);
    expect(two.body.error.message).toBe('Send one file per request.');
    const empty = await upload(incident, { filename: 'empty.txt', data: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe('The file is empty.');
    const broken = await app.request(path(incident), {
      method: 'POST',
      headers: { authorization: `Bearer ${member.token}`, 'content-type': 'multipart/form-data; boundary=x' },
      body: 'this is not multipart',
    });
    expect(broken.status).toBe(400);
    expect(await list(incident)).toEqual([]);
  });

  it('answers 404 for an unknown incident, and for an attachment of another incident', async () => {
    const a = await openIncident();
    const b = await openIncident();
    const ofA = await uploaded(a, { filename: 'a.txt', data: 'a' });
    expect(
      (await upload('/api/v1/incidents/999999/attachments', { filename: 'x.txt', data: 'x' })).status,
    ).toBe(404);
    expect((await download(b, ofA.id)).status).toBe(404);
    expect((await remove(b, ofA.id, admin.token)).status).toBe(404);
    expect((await download(a, 'not-a-uuid')).status).toBe(404);
    expect((await download(a, randomUUID())).status).toBe(404);
    expect((await download(a, ofA.id)).status).toBe(200);
  });
});

describe('roles', () => {
  it('lets viewers list and download but not upload or delete', async () => {
    const incident = await openIncident();
    const created = await uploaded(incident, { filename: 'a.txt', data: 'a' });
    const refused = await upload(incident, { filename: 'v.txt', data: 'v' }, viewer.token);
    expect(refused.status).toBe(403);
    expect(await list(incident)).toHaveLength(1);
    expect((await download(incident, created.id, viewer.token)).status).toBe(200);
    expect((await remove(incident, created.id, viewer.token)).status).toBe(403);
    const anonymous = await api('GET', path(incident, `/${created.id}`));
    expect(anonymous.status).toBe(401);
  });

  it('lets the uploader and admins delete, not another member; the deletion is on the timeline', async () => {
    const incident = await openIncident();
    const mine = await uploaded(incident, { filename: 'mine.txt', data: 'mine' });
    const theirs = await uploaded(incident, { filename: 'theirs.txt', data: 'theirs' });
    const refused = await remove(incident, mine.id, other.token);
    expect(refused.status).toBe(403);
    expect((await bodyOf(refused)).error.code).toBe('forbidden');
    expect(await list(incident)).toHaveLength(2);

    expect((await remove(incident, mine.id, member.token)).status).toBe(204);
    expect((await remove(incident, theirs.id, admin.token)).status).toBe(204);
    expect(await list(incident)).toEqual([]);
    expect((await download(incident, mine.id)).status).toBe(404);
    const [bytesLeft] = await runtime.sql<{ n: number }[]>`
      select count(*)::int as n from incident_attachment_data where attachment_id in ${runtime.sql([mine.id, theirs.id])}`;
    expect(bytesLeft!.n).toBe(0);

    const deleted = await entries(incident, 'attachment_deleted');
    expect(deleted.map((e) => [e.actor.name, e.data])).toEqual([
      ['Mia Member', { attachment_id: mine.id, filename: 'mine.txt' }],
      ['Ada Admin', { attachment_id: theirs.id, filename: 'theirs.txt' }],
    ]);
    // The entries of the upload stay: the timeline is append-only.
    expect(await entries(incident, 'attachment_added')).toHaveLength(2);
  });
});

describe('a resolved incident', () => {
  it('refuses uploads with 409 as it refuses notes, stores nothing, and still lets a file be deleted', async () => {
    const incident = await openIncident();
    const created = await uploaded(incident, { filename: 'keep.txt', data: 'keep' });
    const resolved = await api('PATCH', `/api/v1/incidents/${incident.id}`, {
      token: member.token,
      body: { status: 'resolved' },
    });
    expect(resolved.status).toBe(200);
    const note = await api('POST', `/api/v1/incidents/${incident.id}/notes`, {
      token: member.token,
      body: { text: 'late' },
    });
    const before = await storedCount();
    const refused = await upload(incident, { filename: 'late.txt', data: 'late' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({ ...(await bodyOf(note)).error, request_id: expect.any(String) });
    expect(await storedCount()).toEqual(before);
    expect(await entries(incident, 'attachment_added')).toHaveLength(1);

    expect((await download(incident, created.id)).status).toBe(200);
    expect((await remove(incident, created.id, member.token)).status).toBe(204);
    expect(await entries(incident, 'attachment_deleted')).toHaveLength(1);
  });
});

/** A body that sends its first half, then waits for `finish()` before sending the rest. */
function heldBody(body: Buffer) {
  let started!: () => void;
  let finish!: () => void;
  const startedReading = new Promise<void>((resolve) => {
    started = resolve;
  });
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const half = Math.floor(body.length / 2);
  let step = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        step += 1;
        if (step === 1) {
          controller.enqueue(body.subarray(0, half));
          started();
        } else {
          await finished;
          controller.enqueue(body.subarray(half));
          controller.close();
        }
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, startedReading, finish };
}

function uploadStream(incident: JsonBody, stream: ReadableStream<Uint8Array>, type: string) {
  return app.request(path(incident), {
    method: 'POST',
    headers: { authorization: `Bearer ${member.token}`, 'content-type': type },
    body: stream,
    duplex: 'half',
  } as RequestInit);
}

/** Backends of this test's database waiting for a lock, until there are `n` of them. */
async function untilWaitingForLocks(n: number): Promise<void> {
  for (;;) {
    const [row] = await runtime.sql<{ n: number }[]>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`;
    if (row!.n >= n) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('before the body is read', () => {
  it('answers an anonymous streamed upload 401 without reading its body', async () => {
    const incident = await openIncident();
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 16 * 1024;
        controller.enqueue(new Uint8Array(16 * 1024));
      },
    });
    const res = await app.request(path(incident), {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: endless,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(401);
    expect(pulled).toBeLessThanOrEqual(64 * 1024);
  });

  it('refuses a cookie-authenticated upload from another origin (403) and stores nothing', async () => {
    const incident = await openIncident();
    const before = await storedCount();
    const { body, type } = multipart([{ filename: 'forged.txt', data: 'forged' }]);
    const res = await app.request(path(incident), {
      method: 'POST',
      headers: {
        cookie: `firebreak_session=${member.token}`,
        origin: 'https://evil.example.net',
        'content-type': type,
      },
      body,
    });
    expect(res.status).toBe(403);
    expect((await bodyOf(res)).error.code).toBe('forbidden');
    expect(await storedCount()).toEqual(before);
    // Refused before its body is read, as an anonymous upload is.
    let pulled = 0;
    const streamed = await app.request(path(incident), {
      method: 'POST',
      headers: {
        cookie: `firebreak_session=${member.token}`,
        origin: 'https://evil.example.net',
        'content-type': 'multipart/form-data; boundary=x',
      },
      body: new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += 16 * 1024;
          controller.enqueue(new Uint8Array(16 * 1024));
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(403);
    expect(pulled).toBeLessThanOrEqual(64 * 1024);
    // The same upload from the UI's own origin goes through: the refusal was the origin's.
    const ours = await app.request(path(incident), {
      method: 'POST',
      headers: {
        cookie: `firebreak_session=${member.token}`,
        origin: 'http://localhost',
        'content-type': type,
      },
      body,
    });
    expect(ours.status).toBe(201);
  });
});

describe('concurrency', () => {
  it('writes the bytes before taking the incident lock: an acknowledgement is not held up by uploads', async () => {
    const incident = await openIncident();
    const file = Buffer.alloc(3 * MiB, 'b');
    // The test holds the bytes table so the three uploads stop in the middle of their transactions.
    const results = await runtime.sql.begin(async (tx) => {
      await tx`lock table incident_attachment_data in share mode`;
      const uploads = [1, 2, 3].map((i) => upload(incident, { filename: `big-${i}.log`, data: file }));
      await untilWaitingForLocks(3);
      // No upload holds the incident's row: another transaction can take it at once.
      const [free] = await runtime.sql<{ id: string }[]>`
        select id from incidents where id = ${incident.id} for update nowait`;
      expect(free?.id).toBe(incident.id);
      const acknowledged = await api('PATCH', `/api/v1/incidents/${incident.id}`, {
        token: member.token,
        body: { status: 'acknowledged' },
      });
      expect(acknowledged.status).toBe(200);
      return uploads;
    });
    const done = await Promise.all(results);
    expect(done.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(await list(incident)).toHaveLength(3);
  });

  it('runs four transfers at once per process and refuses a fifth with 503 busy and Retry-After', async () => {
    const incident = await openIncident();
    const stored = await uploaded(incident, { filename: 'stored.txt', data: 'stored' });
    const held = [1, 2, 3, 4].map((i) => {
      const { body, type } = multipart([{ filename: `slow-${i}.txt`, data: `slow upload ${i}` }]);
      const h = heldBody(body);
      return { ...h, response: uploadStream(incident, h.stream, type) };
    });
    await Promise.all(held.map((h) => h.startedReading));

    const before = await storedCount();
    const fifth = await upload(incident, { filename: 'fifth.txt', data: 'fifth' });
    expect(fifth.status).toBe(503);
    expect(fifth.body.error.code).toBe('busy');
    const busyDownload = await api('GET', path(incident, `/${stored.id}`), { token: viewer.token });
    expect(busyDownload.status).toBe(503);
    expect(busyDownload.headers.get('retry-after')).toBe('1');
    expect(await storedCount()).toEqual(before);

    for (const h of held) h.finish();
    expect((await Promise.all(held.map((h) => h.response))).map((r) => r.status)).toEqual([
      201, 201, 201, 201,
    ]);
    // The slots are free again.
    await uploaded(incident, { filename: 'after.txt', data: 'after' });
    expect((await download(incident, stored.id)).status).toBe(200);
  });

  it('gives the last of the 100 places to exactly one of the concurrent uploads', async () => {
    const incident = await openIncident();
    for (let i = 0; i < 99; i++) await uploaded(incident, { filename: `f${i}.txt`, data: `${i}` });
    // As many as one process runs at once (a fifth would be 503 busy, not a contender for the place).
    const racing = await Promise.all(
      [1, 2, 3, 4].map((i) => upload(incident, { filename: `race-${i}.txt`, data: `race ${i}` })),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    expect(await list(incident)).toHaveLength(100);
    const [rows] = await runtime.sql<{ data: number }[]>`
      select count(*)::int as data from incident_attachment_data d
      join incident_attachments a on a.id = d.attachment_id where a.incident_id = ${incident.id}`;
    expect(rows!.data).toBe(100);
  });
});

describe('downloads', () => {
  it('streams a file in slices of at most 1 MiB, from uncompressed storage', async () => {
    const incident = await openIncident();
    const bytes = Buffer.alloc(3 * MiB + 5);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7) & 0xff;
    const created = await uploaded(incident, { filename: 'capture.bin', data: bytes });
    const res = await api('GET', path(incident, `/${created.id}`), { token: viewer.token });
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    const chunks: Uint8Array[] = [];
    const reader = res.body!.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    expect(chunks.length).toBe(4);
    expect(Math.max(...chunks.map((c) => c.byteLength))).toBeLessThanOrEqual(MiB);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    const [column] = await runtime.sql<{ attstorage: string }[]>`
      select attstorage from pg_attribute
      where attrelid = 'incident_attachment_data'::regclass and attname = 'data'`;
    expect(column!.attstorage).toBe('e');
  });
});

describe('the OpenAPI document', () => {
  it('describes the multipart upload with its file part', async () => {
    const doc = await bodyOf(await api('GET', '/api/v1/openapi.json'));
    const post = doc.paths['/api/v1/incidents/{id}/attachments'].post;
    const schema = post.requestBody.content['multipart/form-data'].schema;
    expect(schema).toMatchObject({
      type: 'object',
      properties: { file: { type: 'string', format: 'binary' } },
      required: ['file'],
    });
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['201', '403', '409', '413', '415']));
    expect(doc.paths['/api/v1/incidents/{id}/attachments/{attachment_id}'].delete).toBeDefined();
  });
});
