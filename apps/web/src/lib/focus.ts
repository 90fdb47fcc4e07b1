import { type RefObject, useEffect, useRef } from 'react';

/**
 * A form that opens in place of its button takes the focus away with it when it closes; without this,
 * a keyboard user lands back at the top of the page. When `open` turns false, focus goes to `target()`,
 * read after the re-render so an opener that was hidden while the form was open is back.
 */
export function useFocusOnClose(open: boolean, target: () => HTMLElement | null | undefined): void {
  const wasOpen = useRef(open);
  const latestTarget = useRef(target);
  latestTarget.current = target;
  useEffect(() => {
    if (wasOpen.current && !open) latestTarget.current()?.focus();
    wasOpen.current = open;
  }, [open]);
}

/** Focus on the element once it is on the page: the first field of a form the operator just opened. */
export function useFocusOnMount(element: RefObject<HTMLElement | null>): void {
  useEffect(() => element.current?.focus(), [element]);
}
