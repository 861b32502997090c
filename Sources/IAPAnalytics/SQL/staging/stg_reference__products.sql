-- Grain: one row per line of products.csv. Documentation/Reports.md "Money" (V1 prices),
-- "Product type" (V1 fallback).
with

source as (
    select * from {{ source('ref_products') }}
),

renamed as (
    select
        ---------- ids
        product_id,

        ---------- strings
        product_type,
        currency,

        ---------- numerics
        line as file_line,
        price_milli
    from source
)

select * from renamed;
