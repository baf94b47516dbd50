CREATE TABLE inspections (
  id uuid PRIMARY KEY,
  turbine_id text NOT NULL,
  technician_id text NOT NULL,
  started_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'draft'
);
