-- Grain: one row per day a loaded Apple financial report covers (day).
-- Documentation/Reports.md "apple_reconciliation.csv": only covered days are
-- compared, on both sides.
with

source as (
    select * from {{ source('apple_report_days') }}
),

renamed as (
    select
        day,
        substr(day, 1, 7) as month,
        file_sha256
    from source
)

select * from renamed;
