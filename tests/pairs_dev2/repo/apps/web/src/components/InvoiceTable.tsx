import { useQuery } from "@tanstack/react-query";
import { getJson } from "../api/client";
import { formatCents } from "../lib/money";

type Invoice = { id: string; number: string; total_cents: number; currency: string; status: string };

export function InvoiceTable() {
  const { data, isLoading } = useQuery({
    queryKey: ["invoices"],
    queryFn: ({ signal }) => getJson<Invoice[]>("/invoices", signal),
  });
  if (isLoading) return <p>Loading…</p>;
  return (
    <table>
      <tbody>
        {(data ?? []).map((inv) => (
          <tr key={inv.id}>
            <td>{inv.number}</td>
            <td>{formatCents(inv.total_cents, inv.currency)}</td>
            <td>{inv.status}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
