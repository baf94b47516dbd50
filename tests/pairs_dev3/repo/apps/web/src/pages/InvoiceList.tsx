import { useQuery } from "@tanstack/react-query";
import { fetchWithRetry } from "../api/client";
import { formatMoney } from "../lib/money";

type Invoice = { id: string; number: string; total_cents: number; status: string };

export function InvoiceList() {
  const { data, isLoading } = useQuery({
    queryKey: ["invoices"],
    queryFn: () => fetchWithRetry<Invoice[]>("/v1/invoices"),
  });
  if (isLoading) return <p>Loading…</p>;
  return (
    <table>
      <tbody>
        {(data ?? []).map((inv) => (
          <tr key={inv.id}>
            <td>{inv.number}</td>
            <td>{formatMoney(inv.total_cents)}</td>
            <td>{inv.status}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
