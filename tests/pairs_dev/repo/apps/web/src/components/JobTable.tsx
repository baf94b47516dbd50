
import { useQuery } from "@tanstack/react-query";
import { fetchJobs, type Job } from "../api/client";

const POLL_INTERVAL_MS = 5000;

export function JobTable({ token }: { token: string }) {
  const { data, isLoading } = useQuery({
    queryKey: ["jobs"],
    queryFn: () => fetchJobs(token),
    refetchInterval: POLL_INTERVAL_MS,
  });
  if (isLoading) return <p>Loading…</p>;
  return (
    <table>
      <tbody>
        {(data ?? []).map((job: Job) => (
          <tr key={job.id}>
            <td>{job.assetId}</td>
            <td>{job.preset}</td>
            <td>{job.status}</td>
            <td>{Math.round(job.progress * 100)}%</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
