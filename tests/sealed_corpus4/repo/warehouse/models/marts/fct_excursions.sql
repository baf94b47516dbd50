-- one row per logger per continuous stretch above the threshold
select
    r.logger_id,
    min(r.read_at) as started_at,
    max(r.read_at) as ended_at,
    max(r.temperature_c) as peak_c
from {{ ref('stg_readings') }} r
where r.temperature_c > 4.0
group by r.logger_id, r.excursion_group
