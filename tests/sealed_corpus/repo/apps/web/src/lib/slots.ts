import { addDays, isAfter } from "date-fns";
import { formatInTimeZone } from "date-fns-tz";

/** Length of one bookable opening, in minutes. Must match the API's SLOT_MINUTES. */
export const SLOT_MINUTES = 15;

/** Patients cannot pick a day further out than this. */
export const MAX_BOOKING_DAYS_AHEAD = 90;

export interface Slot {
  providerId: number;
  start: string;
  end: string;
}

/** "09:15 – 09:30" in the clinic's time zone (en dash, 24-hour clock). */
export function formatSlotLabel(slot: Slot, timeZone: string): string {
  const from = formatInTimeZone(slot.start, timeZone, "HH:mm");
  const to = formatInTimeZone(slot.end, timeZone, "HH:mm");
  return `${from} \u2013 ${to}`;
}

/** True when the day is inside the booking window that starts today. */
export function isBookableDay(day: Date, today: Date = new Date()): boolean {
  return !isAfter(day, addDays(today, MAX_BOOKING_DAYS_AHEAD));
}
