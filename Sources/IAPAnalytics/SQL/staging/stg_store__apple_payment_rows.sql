-- Grain: one row per region row of a loaded Apple payment summary
-- (file_sha256, line), with its summary's fiscal month and whether Apple had
-- paid it. Documentation/Reports.md "apple_payments.csv".
with

source as (
    select * from {{ source('apple_payment_rows') }}
),

summaries as (
    select * from {{ source('apple_payment_summaries') }}
),

renamed as (
    select
        ---------- ids
        source.file_sha256,
        source.line,
        summaries.fiscal_month,
        source.region,
        source.currency,

        ---------- strings
        source.section,
        source.exchange_rate,
        source.bank_currency,

        ---------- booleans
        summaries.is_pending = 1 as is_pending,

        ---------- numerics
        source.units_sold,
        source.beginning_balance_milli,
        source.earned_milli,
        source.input_tax_milli,
        source.adjustments_milli,
        source.withholding_tax_milli,
        source.total_owed_milli,
        source.proceeds_milli
    from source
    inner join summaries
        on summaries.file_sha256 = source.file_sha256
)

select * from renamed;
