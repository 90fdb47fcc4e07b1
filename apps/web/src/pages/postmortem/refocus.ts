/**
 * A button disabled while its request runs drops the keyboard focus to the page itself, and a keyboard
 * user starts again from the top. Once the request is back, the focus goes to `field`, unless the
 * person has put it somewhere else meanwhile.
 */
export function refocusIfDropped(field: HTMLElement | null): void {
  const active = document.activeElement;
  if (field?.isConnected && (active === null || active === document.body)) field.focus();
}
