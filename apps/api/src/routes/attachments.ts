import {
  type AppEnv,
  type Operations,
  type OwnBodyLimit,
  principalOf,
  readLimitedBody,
} from '@firebreak/http';
import { AppError, type Attachment, MAX_ATTACHMENT_BYTES } from '@firebreak/schema';
import {
  attachmentDisposition,
  attachmentTooLarge,
  deleteAttachment,
  listAttachments,
  parseIncidentRef,
  readAttachment,
  type UploadedFile,
  uploadAttachment,
} from '@firebreak/services';
import type { Context, MiddlewareHandler } from 'hono';
import type { ApiDeps } from '../deps';
import { attachmentOperations as op } from '../operations/attachments';

/**
 * Room for the multipart framing around the file: the boundary lines and the part's headers, whose
 * file name may itself be long. A body over file limit + this is refused before it is read; a file
 * just over the limit inside a body that fits is refused once parsed, with the same 413.
 */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/**
 * The upload reads its body itself, after the role check and the CSRF guard, so the API's 256 KiB
 * limit (which runs before either) passes it through (docs/attachments.md#limits).
 */
export const attachmentOwnBodyLimits: OwnBodyLimit[] = [
  { method: 'POST', path: /^\/api\/v1\/incidents\/[^/]+\/attachments$/ },
];

/**
 * Uploads and downloads one process runs at once. Each holds up to 10 MiB (an upload two or three
 * copies of it while the multipart body is parsed), so a burst could otherwise take hundreds of
 * megabytes; beyond the cap the request is refused at once with 503 `busy` and `Retry-After`, never
 * queued, and before its body is read.
 */
export const ATTACHMENT_TRANSFER_SLOTS = 4;

class TransferSlots {
  private inUse = 0;
  constructor(private readonly limit: number) {}

  take(): () => void {
    if (this.inUse >= this.limit) {
      throw new AppError('busy', 'The server is busy with other file transfers; retry shortly.', {
        retry_after_seconds: 1,
      });
    }
    this.inUse += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inUse -= 1;
    };
  }
}

/** Files attached to incidents (docs/attachments.md). */
export function addAttachmentRoutes(ops: Operations, deps: ApiDeps): void {
  const { ctx } = deps;
  const ref = (params: { id: string }) => parseIncidentRef(params.id);
  const slots = new TransferSlots(ATTACHMENT_TRANSFER_SLOTS);
  // Runs after the role check (ops.add puts `before` after it), so an anonymous request never takes a slot.
  const uploadSlot: MiddlewareHandler<AppEnv> = async (_c, next) => {
    const release = slots.take();
    try {
      await next();
    } finally {
      release();
    }
  };

  ops.add(op.list, async (c, { params }) => c.json({ items: await listAttachments(ctx, ref(params)) }));
  ops.add(
    op.upload,
    async (c, { params }) =>
      c.json(await uploadAttachment(ctx, principalOf(c), ref(params), await readUpload(c)), 201),
    { before: [uploadSlot] },
  );
  ops.add(op.download, async (c, { params }) => {
    const release = slots.take();
    let headers: Record<string, string>;
    let slices: () => AsyncGenerator<Uint8Array>;
    try {
      const file = await readAttachment(ctx, ref(params), params.attachment_id);
      slices = file.slices;
      headers = downloadHeaders(file.attachment);
    } catch (error) {
      release();
      throw error;
    }
    // hono answers HEAD with this route and drops the body unread: read nothing, keep no slot.
    if (c.req.raw.method === 'HEAD') {
      release();
      return c.body(null, 200, headers);
    }
    return c.body(sliceStream(slices(), release), 200, headers);
  });
  ops.add(op.remove, async (c, { params }) => {
    await deleteAttachment(ctx, principalOf(c), ref(params), params.attachment_id);
    return c.body(null, 204);
  });
}

/** The bytes as a stream that reads the next slice when the last one was sent; `done` once it ends. */
function sliceStream(source: AsyncGenerator<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await source.next();
          if (next.done) {
            done();
            controller.close();
          } else {
            controller.enqueue(next.value);
          }
        } catch (error) {
          done();
          controller.error(error);
        }
      },
      // The client went away: the slot is free again.
      async cancel() {
        done();
        await source.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

function downloadHeaders(attachment: Attachment): Record<string, string> {
  // Sniffed text is known to be UTF-8 (docs/attachments.md#content-types).
  const type =
    attachment.content_type === 'text/plain' ? 'text/plain; charset=utf-8' : attachment.content_type;
  return {
    'content-type': type,
    'content-length': String(attachment.size),
    'content-disposition': attachmentDisposition(attachment.filename),
    // Never rendered as a page of ours: no sniffing into HTML, no script, no embedding elsewhere.
    'x-content-type-options': 'nosniff',
    'content-security-policy': 'sandbox',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'private, no-cache',
  };
}

const formNeeded = 'Send the file as multipart/form-data with one part named "file".';

/** The one `file` part of a multipart body: 415 for another content type, 400 without exactly one file. */
async function readUpload(c: Context<AppEnv>): Promise<UploadedFile> {
  const contentType = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw new AppError('unsupported_media_type', formNeeded);
  }
  let form: FormData;
  try {
    const raw = await readLimitedBody(c, MAX_ATTACHMENT_BYTES + MULTIPART_OVERHEAD_BYTES, attachmentTooLarge);
    // The platform's multipart parser, on the bytes already read: the body was limited above.
    form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  } catch (error) {
    if (error instanceof AppError) throw error; // the body limit, or the client went away
    throw new AppError('validation_failed', `The body is not valid multipart/form-data. ${formNeeded}`, [
      { path: 'file', message: 'The body could not be read as multipart/form-data.' },
    ]);
  }
  const files = form.getAll('file');
  const file = files[0];
  if (files.length !== 1 || typeof file === 'string' || file === undefined) {
    const message = files.length > 1 ? 'Send one file per request.' : 'A file part named "file" is required.';
    throw new AppError('validation_failed', message, [{ path: 'file', message }]);
  }
  if (file.size > MAX_ATTACHMENT_BYTES) throw attachmentTooLarge();
  return { filename: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
}
