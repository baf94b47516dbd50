import { formatEta } from "../lib/formatEta";

export type StopRow = { id: string; name: string; etaMinutes: number };

export function StopList({ rows }: { rows: StopRow[] }) {
  if (rows.length === 0) {
    return <p className="empty">No stops on this run.</p>;
  }
  return (
    <ol className="stop-list">
      {rows.map((r) => (
        <li key={r.id}>
          <span>{r.name}</span>
          <span className="eta-badge">{formatEta(r.etaMinutes)}</span>
        </li>
      ))}
    </ol>
  );
}
