const API_BASE = import.meta.env.VITE_API_BASE ?? "http://localhost:8000";

export const MAX_RETRIES = 3;
export const RETRY_BASE_DELAY_MS = 250;

export class ApiError extends Error {
  constructor(public status: number, message: string) {
    super(message);
    this.name = "ApiError";
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * GET a JSON resource. Retries 5xx responses up to MAX_RETRIES times with
 * exponential backoff (250 ms, 500 ms, 1 s). 4xx responses are not retried.
 */
export async function fetchWithRetry<T>(path: string, init?: RequestInit): Promise<T> {
  let attempt = 0;
  for (;;) {
    const res = await fetch(`${API_BASE}${path}`, { credentials: "include", ...init });
    if (res.ok) return (await res.json()) as T;
    if (res.status < 500 || attempt >= MAX_RETRIES) {
      throw new ApiError(res.status, await res.text());
    }
    await sleep(RETRY_BASE_DELAY_MS * 2 ** attempt);
    attempt += 1;
  }
}
