/**
 * Formats minutes-until-arrival for the ETA badge.
 * Under one minute shows "Due"; under an hour "N min"; otherwise "H:MM".
 */
export function formatEta(minutes: number): string {
  if (minutes < 1) return "Due";
  if (minutes < 60) return `${Math.round(minutes)} min`;
  const h = Math.floor(minutes / 60);
  const m = Math.round(minutes % 60);
  return `${h}:${String(m).padStart(2, "0")}`;
}
