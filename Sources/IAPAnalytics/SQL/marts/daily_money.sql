-- Grain: one row per (day, currency): the money figures of a day, for the
-- pages' view in one reporting currency (Documentation/Reports.md
-- "apple_payments.csv", --reporting-currency), which converts each day at the
-- rate of the paid fiscal month that holds it.
-- * gross_milli, refunded_milli, est_proceeds_milli: reconciliation.csv's
--   figures by UTC day (sales by purchase, refunds by refund date);
-- * apple_proceeds_milli: the Extended Partner Share of Apple's report rows by
--   their Transaction Date, in the Partner Share Currency.
-- month: the day's month.
with

transactions as not materialized (
    select * from {{ ref('int_transactions_priced') }}
),

refunds as not materialized (
    select * from {{ ref('int_refunds') }}
),

report_rows as (
    select * from {{ ref('stg_store__apple_report_rows') }}
),

-- The archive's movements are dated as UTC day numbers (days since
-- 1970-01-01, rounded down, so an instant before 1970 falls on its own day)
-- and summed by day number first; only the few thousand sums become
-- 'YYYY-MM-DD' text. A date formatted per transaction cost about 0.4 s at 1M
-- notifications.
archive_movements as (
    select
        purchased_at_ms as at_ms,
        currency,
        gross_milli,
        0 as refunded_milli,
        sale_proceeds_milli as est_proceeds_milli
    from transactions
    where is_paid and purchased_at_ms is not null
    union all
    select
        revoked_at_ms,
        currency,
        0,
        refund_milli,
        -refund_proceeds_milli
    from refunds
),

archive_day_numbers as (
    select
        (at_ms - ((at_ms % {{ rule('milliseconds_per_day') }}) + {{ rule('milliseconds_per_day') }})
            % {{ rule('milliseconds_per_day') }}) / {{ rule('milliseconds_per_day') }} as day_number,
        currency,
        sum(gross_milli) as gross_milli,
        sum(refunded_milli) as refunded_milli,
        sum(est_proceeds_milli) as est_proceeds_milli
    from archive_movements
    group by 1, currency
),

archive_days as (
    select
        day_number * {{ rule('milliseconds_per_day') }} as day_start_ms,
        currency,
        gross_milli,
        refunded_milli,
        est_proceeds_milli
    from archive_day_numbers
),

movements as (
    select
        {{ day_of_ms(day_start_ms) }} as day,
        currency,
        gross_milli,
        refunded_milli,
        est_proceeds_milli,
        0 as apple_proceeds_milli
    from archive_days
    union all
    select
        day,
        partner_share_currency,
        0,
        0,
        0,
        extended_partner_share_milli
    from report_rows
),

final as (
    select
        substr(day, 1, 7) as month,
        day,
        currency,
        sum(gross_milli) as gross_milli,
        sum(refunded_milli) as refunded_milli,
        sum(est_proceeds_milli) as est_proceeds_milli,
        sum(apple_proceeds_milli) as apple_proceeds_milli
    from movements
    group by substr(day, 1, 7), day, currency
)

select * from final;
