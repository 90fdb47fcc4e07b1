/**
 * A person's name in an editor's list, marked when only the name is left: a deleted user, or someone an
 * import found no account for.
 */
export function ListedPerson({ person }: { person: { name: string; userId: string | null } }) {
  return (
    <span className="edit-list-name">
      {person.name}
      {person.userId ? null : <span className="hint"> (no account)</span>}
    </span>
  );
}

/** The "Remove" button beside a listed person, named for the person and the list they leave. */
export function RemovePersonButton({
  name,
  from,
  onRemove,
}: {
  name: string;
  from: string;
  onRemove: () => void;
}) {
  return (
    <button type="button" className="danger" aria-label={`Remove ${name} from ${from}`} onClick={onRemove}>
      Remove
    </button>
  );
}
