-- Grain: one row per loaded Apple financial report (file_sha256), with the
-- fiscal month it is named by. Documentation/Reports.md "apple_payments.csv":
-- a report's fiscal month is the calendar month that holds most of its
-- period's days, the month of the period's middle day (Apple's fiscal months
-- are four or five whole weeks, so no month ties).
with

source as (
    select * from {{ source('apple_reports') }}
    where period_start <> ''
),

bounds as (
    select
        file_sha256,
        period_start,
        period_end,
        {{ day_start_ms(period_start) }} as start_ms,
        {{ day_start_ms(period_end) }} as end_ms
    from source
),

renamed as (
    select
        ---------- ids
        file_sha256,

        ---------- strings
        {{ month_of_ms((start_ms + end_ms) / 2) }} as fiscal_month,
        period_start,
        period_end
    from bounds
)

select * from renamed;
