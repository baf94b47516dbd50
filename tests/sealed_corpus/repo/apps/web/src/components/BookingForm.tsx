import { useState } from "react";
import { ApiClient, ApiError } from "../api/client";
import type { Slot } from "../lib/slots";

const api = new ApiClient();

export function BookingForm({ slot, onCancel }: { slot: Slot; onCancel: () => void }) {
  const [phone, setPhone] = useState("");
  const [error, setError] = useState<string | null>(null);

  async function submit() {
    try {
      await api.post("/appointments", { ...slot, phone });
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        setError("Someone just took this time. Please pick another.");
      } else {
        setError("Booking failed. Please try again.");
      }
    }
  }

  return (
    <form onSubmit={(e) => { e.preventDefault(); void submit(); }}>
      <label>
        Mobile number
        <input value={phone} onChange={(e) => setPhone(e.target.value)} />
      </label>
      {error && <p role="alert">{error}</p>}
      <button type="submit">Book</button>
      <button type="button" onClick={onCancel}>Back</button>
    </form>
  );
}
