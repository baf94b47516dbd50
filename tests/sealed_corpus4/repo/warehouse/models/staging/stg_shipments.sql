select
    shipment_id,
    landing_port,
    vessel_name,
    cast(landed_at as timestamp) as landed_at
from {{ source('ops', 'shipments') }}
