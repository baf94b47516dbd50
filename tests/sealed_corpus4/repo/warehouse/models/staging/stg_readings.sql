select
    logger_id,
    cast(read_at as timestamp) as read_at,
    temperature_c,
    battery_pct
from {{ source('ingest', 'readings') }}
