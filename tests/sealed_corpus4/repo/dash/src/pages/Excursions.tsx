import { useQuery } from "@tanstack/react-query";

export function Excursions() {
  const { data } = useQuery({ queryKey: ["excursions"], queryFn: () => fetch("/api/excursions").then((r) => r.json()) });
  return <ul>{(data ?? []).map((e: { logger_id: string }) => <li key={e.logger_id}>{e.logger_id}</li>)}</ul>;
}
