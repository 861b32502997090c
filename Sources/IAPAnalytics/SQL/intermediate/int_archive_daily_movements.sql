-- Grain: one row per (day, product_id, currency) on a day a loaded Apple
-- financial report covers, with the archive's sales and refunds of that day.
-- Documentation/Reports.md "apple_reconciliation.csv": the sales and refunds
-- reconciliation.csv counts (paid: gross above zero or unpriced, not
-- family-shared), a sale dated by its purchase and a refund by its refund
-- date, each as the calendar day in Apple's reporting zone
-- (apple_day_of_ms); units are quantities, not transactions; proceeds by
-- the proceeds-rate rule (an estimate).
-- Built as a TEMP table. Only transactions within a day of the covered span
-- are dated at all: a year of reports beside a million transactions dates
-- only that year's.
with

-- Read in place by both uses (sales, refunds): a copy of every transaction
-- cost more than the two scans.
transactions as not materialized (
    select * from {{ ref('int_transactions_priced') }}
),

covered_days as (
    select * from {{ ref('stg_store__apple_report_days') }}
),

-- A day in any zone starts at most 14 hours from its UTC start: one day
-- before the first covered day to two after the last is wide enough.
covered_span as (
    select
        {{ day_start_ms(min(day)) }} - {{ rule('milliseconds_per_day') }} as from_ms,
        {{ day_start_ms(max(day)) }} + 172800000 as until_ms
    from covered_days
),

-- Each movement is dated as a day number (days since 1970-01-01 in Apple's
-- zone: integer arithmetic on the instant plus the zone's offset then) and
-- summed by day number first; only the few thousand sums become 'YYYY-MM-DD'
-- text. Formatting a date per transaction cost 5 s at 1M notifications.
sales as (
    select
        (transactions.purchased_at_ms + {{ apple_offset_ms(transactions.purchased_at_ms) }}) / {{ rule('milliseconds_per_day') }} as day_number,
        transactions.product_id,
        transactions.currency,
        transactions.quantity as units_sold,
        transactions.gross_milli,
        0 as units_refunded,
        0 as refunded_milli,
        transactions.sale_proceeds_milli as est_proceeds_milli
    from transactions
    cross join covered_span
    where transactions.is_paid
        and transactions.purchased_at_ms >= covered_span.from_ms
        and transactions.purchased_at_ms < covered_span.until_ms
),

refunds as (
    select
        (transactions.revoked_at_ms + {{ apple_offset_ms(transactions.revoked_at_ms) }}) / {{ rule('milliseconds_per_day') }} as day_number,
        transactions.product_id,
        transactions.currency,
        0 as units_sold,
        0 as gross_milli,
        transactions.quantity as units_refunded,
        transactions.refund_milli as refunded_milli,
        -transactions.refund_proceeds_milli as est_proceeds_milli
    from transactions
    cross join covered_span
    where transactions.is_refunded
        and transactions.is_paid
        and transactions.revoked_at_ms >= covered_span.from_ms
        and transactions.revoked_at_ms < covered_span.until_ms
),

movements as (
    select * from sales
    union all
    select * from refunds
),

daily_numbers as (
    select
        day_number,
        day_number * {{ rule('milliseconds_per_day') }} as day_start_ms,
        product_id,
        currency,
        sum(units_sold) as units_sold,
        sum(gross_milli) as gross_milli,
        sum(units_refunded) as units_refunded,
        sum(refunded_milli) as refunded_milli,
        sum(est_proceeds_milli) as est_proceeds_milli
    from movements
    group by day_number, product_id, currency
),

final as (
    select
        covered_days.day,
        covered_days.month,
        daily_numbers.product_id,
        daily_numbers.currency,
        daily_numbers.units_sold,
        daily_numbers.gross_milli,
        daily_numbers.units_refunded,
        daily_numbers.refunded_milli,
        daily_numbers.est_proceeds_milli
    from daily_numbers
    inner join covered_days
        on covered_days.day = {{ day_of_ms(daily_numbers.day_start_ms) }}
)

select * from final;
