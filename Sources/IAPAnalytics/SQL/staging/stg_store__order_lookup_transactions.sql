-- Grain: one row per (lookup_id, transaction_id) listed by an order lookup.
drop view if exists stg_store__order_lookup_transactions;

create view stg_store__order_lookup_transactions as

with

source as (
    select * from order_lookup_transactions
),

renamed as (
    select
        ---------- ids
        lookup_id,
        transaction_id
    from source
)

select * from renamed;
