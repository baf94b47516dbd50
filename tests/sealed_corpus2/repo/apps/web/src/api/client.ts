export class ApiError extends Error {
  constructor(
    public status: number,
    message: string,
  ) {
    super(message);
  }
}

const BASE = "/api";
const RETRYABLE = new Set([502, 503]);

/** GET requests are retried once on 502/503; other methods never retry. */
export async function apiFetch<T>(path: string, init: RequestInit = {}): Promise<T> {
  const method = (init.method ?? "GET").toUpperCase();
  let res = await fetch(BASE + path, init);
  if (method === "GET" && RETRYABLE.has(res.status)) {
    res = await fetch(BASE + path, init);
  }
  if (!res.ok) {
    throw new ApiError(res.status, await res.text());
  }
  return (await res.json()) as T;
}
