import { useEffect, useState } from "react";
import { StopList, type StopRow } from "./components/StopList";
import { ETA_POLL_MS } from "./config";

export function App() {
  const [rows, setRows] = useState<StopRow[]>([]);

  useEffect(() => {
    const load = () =>
      fetch("/v1/routes/current/eta")
        .then((r) => r.json())
        .then((body: { minutes: number[] }) =>
          setRows(body.minutes.map((m, i) => ({ id: String(i), name: `Stop ${i + 1}`, etaMinutes: m }))),
        );
    load();
    const t = setInterval(load, ETA_POLL_MS);
    return () => clearInterval(t);
  }, []);

  return (
    <main>
      <h1>Lanternway Dispatch</h1>
      <StopList rows={rows} />
    </main>
  );
}
