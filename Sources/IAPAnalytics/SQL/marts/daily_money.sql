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

movements as (
    select
        {{ day_of_ms(purchased_at_ms) }} as day,
        currency,
        gross_milli,
        0 as refunded_milli,
        sale_proceeds_milli as est_proceeds_milli,
        0 as apple_proceeds_milli
    from transactions
    where is_paid and purchased_at_ms is not null
    union all
    select
        {{ day_of_ms(revoked_at_ms) }},
        currency,
        0,
        refund_milli,
        -refund_proceeds_milli,
        0
    from refunds
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
