-- Grain: one row per (lookup_id, transaction_id) listed by an order lookup.
with

source as (
    select * from {{ source('order_lookup_transactions') }}
),

renamed as (
    select
        ---------- ids
        lookup_id,
        transaction_id
    from source
)

select * from renamed;
