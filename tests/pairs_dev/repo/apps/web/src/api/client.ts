
export const API_BASE = import.meta.env.VITE_API_BASE ?? "http://localhost:8000";

export type JobStatus = "queued" | "encoding" | "packaging" | "ready" | "failed";

export interface Job {
  id: string;
  assetId: string;
  preset: string;
  status: JobStatus;
  progress: number;
}

export async function fetchJobs(token: string): Promise<Job[]> {
  const res = await fetch(`${API_BASE}/v1/jobs`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (!res.ok) {
    throw new Error(`fetchJobs failed: ${res.status}`);
  }
  return (await res.json()) as Job[];
}
