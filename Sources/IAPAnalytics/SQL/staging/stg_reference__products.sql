-- Grain: one row per line of products.csv. REPORTS.md "Amount" (V1 prices),
-- "Product type" (V1 fallback).
drop view if exists stg_reference__products;

create view stg_reference__products as

with

source as (
    select * from ref_products
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
