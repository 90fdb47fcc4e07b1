import { describe, expect, it } from 'vitest';
import { formatBytes } from './attachment-format';
import { entryText } from './timeline-text';

describe('attachment sizes and timeline lines', () => {
  it('writes sizes in powers of 1024, as the 10 MiB limit counts them', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2458)).toBe('2.4 KiB');
    expect(formatBytes(10 * 1024 * 1024)).toBe('10 MiB');
  });

  it('says what was attached and what was deleted', () => {
    expect(
      entryText({
        type: 'attachment_added',
        data: { attachment_id: 'a', filename: 'pixel.png', size: 2458, content_type: 'image/png' },
      }),
    ).toBe('Attached pixel.png (image/png, 2.4 KiB)');
    expect(
      entryText({ type: 'attachment_deleted', data: { attachment_id: 'a', filename: 'pixel.png' } }),
    ).toBe('Deleted the attachment pixel.png');
  });
});
