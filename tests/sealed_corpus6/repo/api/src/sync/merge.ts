// Field-level last-writer-wins. Each change carries the device's
// hybrid logical clock (hlc); the higher hlc wins per field. Deletions
// are tombstones kept for TOMBSTONE_TTL_DAYS.
export interface FieldChange {
  entity: "inspection" | "finding" | "photo";
  id: string;
  field: string;
  value: unknown;
  hlc: string;
}

export function compareHlc(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export async function mergeChanges(deviceId: string, since: string, changes: unknown[]) {
  // persistence omitted in this excerpt
  return { deviceId, since, accepted: changes.length, serverChanges: [] };
}
