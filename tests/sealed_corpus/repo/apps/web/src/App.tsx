import { useState } from "react";
import { BookingForm } from "./components/BookingForm";
import { SlotPicker } from "./components/SlotPicker";
import type { Slot } from "./lib/slots";

export function App() {
  const [chosen, setChosen] = useState<Slot | null>(null);
  return (
    <main>
      <h1>Book an appointment</h1>
      {chosen ? (
        <BookingForm slot={chosen} onCancel={() => setChosen(null)} />
      ) : (
        <SlotPicker onPick={setChosen} />
      )}
    </main>
  );
}
