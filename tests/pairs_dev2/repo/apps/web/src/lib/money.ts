export const DEFAULT_CURRENCY = "EUR";

/** Format an integer amount of cents for display, e.g. 123456 -> "€1,234.56". */
export function formatCents(cents: number, currency: string = DEFAULT_CURRENCY, locale = "en-GB"): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(cents / 100);
}

/** Sum line totals without ever leaving integer cents. */
export function sumCents(values: number[]): number {
  return values.reduce((total, v) => total + Math.round(v), 0);
}
