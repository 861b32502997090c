-- Grain: one row per row of a loaded Apple financial report (file_sha256,
-- line). Documentation/Reports.md "apple_reconciliation.csv": days are
-- Apple's Transaction Date (Pacific Time by default), amounts exact
-- milliunits.
with

source as (
    select * from {{ source('apple_report_rows') }}
),

renamed as (
    select
        ---------- ids
        file_sha256,
        line,
        sku as product_id,
        customer_currency as currency,

        ---------- strings
        transaction_date as day,
        sale_or_return,
        product_type_identifier,
        country_of_sale,
        partner_share_currency,
        -- The region of Apple's payment summary the row is paid in.
        region,

        ---------- numerics
        quantity,
        customer_price_milli,
        extended_partner_share_milli
    from source
)

select * from renamed;
