interface Props {
  /** What the item is, in lower case: "tier" reads "Move tier up". */
  noun: string;
  /** The item's title, which makes each button's accessible name unique on the page. */
  title: string;
  index: number;
  count: number;
  onMove: (delta: number) => void;
  onRemove: () => void;
}

/** The buttons under one item of an ordered list an editor holds: move it up, move it down, remove it. */
export function MoveControls({ noun, title, index, count, onMove, onRemove }: Props) {
  return (
    <div className="actions">
      <button
        type="button"
        disabled={index === 0}
        aria-label={`Move ${noun} up: ${title}`}
        onClick={() => onMove(-1)}
      >
        {`Move ${noun} up`}
      </button>
      <button
        type="button"
        disabled={index === count - 1}
        aria-label={`Move ${noun} down: ${title}`}
        onClick={() => onMove(1)}
      >
        {`Move ${noun} down`}
      </button>
      <button type="button" className="danger" aria-label={`Remove ${noun}: ${title}`} onClick={onRemove}>
        {`Remove ${noun}`}
      </button>
    </div>
  );
}
