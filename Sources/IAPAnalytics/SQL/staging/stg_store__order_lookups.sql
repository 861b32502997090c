-- Grain: one row per order lookup (lookup_id) of the configured environment.
-- iaplens's own order_lookups.csv.
-- Decision: a lookup without an environment (an invalid order lists no
-- transactions to take it from) is kept.
with

source as (
    select * from {{ source('order_lookups') }}
    where environment is null
        or environment = (select environment from {{ source('analysis_parameters') }})
),

renamed as (
    select
        ---------- ids
        lookup_id,
        order_id,

        ---------- strings
        -- A status Apple adds later is shown as sent, never taken for either.
        case status
            when 0 then 'valid'
            when 1 then 'invalid'
            else 'unknown_' || status
        end as lookup_status,
        note,

        ---------- timestamps
        coalesce(document_time, received_at) as looked_up_at_ms
    from source
)

select * from renamed;
