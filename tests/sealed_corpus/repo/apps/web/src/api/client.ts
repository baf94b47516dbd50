const MAX_RETRIES = 3;
const BASE_DELAY_MS = 200;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Thin fetch wrapper for the scheduling API. GET requests are retried up to
 * MAX_RETRIES times on network errors and 5xx answers, waiting 200 ms, 400 ms,
 * 800 ms. POST is never retried: booking twice is worse than failing once.
 */
export class ApiClient {
  constructor(private readonly baseUrl: string = "/api") {}

  async get<T>(path: string): Promise<T> {
    let lastError: unknown;
    for (let attempt = 0; attempt <= MAX_RETRIES; attempt++) {
      try {
        const res = await fetch(`${this.baseUrl}${path}`);
        if (res.status >= 500) throw new ApiError(res.status, `GET ${path}`);
        if (!res.ok) throw new ApiError(res.status, `GET ${path}`);
        return (await res.json()) as T;
      } catch (err) {
        lastError = err;
        if (err instanceof ApiError && err.status < 500) throw err;
        if (attempt < MAX_RETRIES) await sleep(BASE_DELAY_MS * 2 ** attempt);
      }
    }
    throw lastError;
  }

  async post<T>(path: string, body: unknown): Promise<T> {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new ApiError(res.status, `POST ${path}`);
    return (await res.json()) as T;
  }
}
