CREATE TABLE findings (
  id uuid PRIMARY KEY,
  inspection_id uuid NOT NULL REFERENCES inspections(id) ON DELETE CASCADE,
  component text NOT NULL CHECK (component IN ('blade', 'nacelle', 'tower', 'foundation')),
  severity smallint NOT NULL CHECK (severity BETWEEN 1 AND 5),
  note text,
  hlc text NOT NULL
);
CREATE INDEX findings_inspection_idx ON findings (inspection_id);
