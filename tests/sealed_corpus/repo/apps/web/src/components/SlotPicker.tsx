import { useEffect, useState } from "react";
import { ApiClient } from "../api/client";
import { formatSlotLabel, type Slot } from "../lib/slots";

const api = new ApiClient();

export function SlotPicker({ onPick }: { onPick: (slot: Slot) => void }) {
  const [slots, setSlots] = useState<Slot[]>([]);
  useEffect(() => {
    api.get<Slot[]>("/slots?days=7").then(setSlots);
  }, []);
  if (slots.length === 0) return <p>No openings this week.</p>;
  return (
    <ul>
      {slots.map((s) => (
        <li key={`${s.providerId}-${s.start}`}>
          <button onClick={() => onPick(s)}>{formatSlotLabel(s, "Europe/Prague")}</button>
        </li>
      ))}
    </ul>
  );
}
