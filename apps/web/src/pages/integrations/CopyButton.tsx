import { useState } from 'react';

/**
 * Copies a text to the clipboard and says so in a live region. The clipboard API exists only on a
 * secure origin (https or localhost); elsewhere the button says to copy by hand rather than fail
 * silently.
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [said, setSaid] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setSaid('Copied.');
    } catch {
      setSaid('The browser refused; select the text and copy it.');
    }
  };
  return (
    <span className="actions">
      <button type="button" onClick={copy} aria-label={label}>
        Copy
      </button>
      <span role="status" className="small subtle">
        {said}
      </span>
    </span>
  );
}
