import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../api/client";
import { RESULTS_PER_PAGE, SEARCH_DEBOUNCE_MS } from "../config";

type Hit = { id: string; title: string; author: string; available: number };

export function SearchBar() {
  const [text, setText] = useState("");
  const [query, setQuery] = useState("");

  useEffect(() => {
    const t = setTimeout(() => setQuery(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text]);

  const { data } = useQuery({
    queryKey: ["search", query],
    queryFn: () => apiFetch<Hit[]>(`/search?q=${encodeURIComponent(query)}&page_size=${RESULTS_PER_PAGE}`),
    enabled: query.length >= 2,
  });

  return (
    <div role="search">
      <input aria-label="Search the catalogue" value={text} onChange={(e) => setText(e.target.value)} />
      <ul>
        {data?.map((h) => (
          <li key={h.id}>
            {h.title} - {h.author} ({h.available} available)
          </li>
        ))}
      </ul>
    </div>
  );
}
