-- Grain: one row per (month, currency, product_type) with a sale (paid
-- transaction by purchase month) or a refund (by refund month).
-- Documentation/Reports.md reconciliation.csv.
-- est_proceeds_milli = proceeds of the month's sales - proceeds of the
-- month's refunds, each rounded per transaction.
-- Decisions: unpriced counts the unpriced sales plus the unpriced refunds of
-- the row (so for currency XXX, unpriced = sales + refunds); a refund whose
-- purchase date is unknown is not a prior-period refund.
with

transactions as (
    select * from {{ ref('int_transactions_priced') }}
),

refunded_transactions as (
    select * from {{ ref('int_refunds') }}
),

-- Sales are summed per (month, currency, product type) before the union:
-- grouping a million one-row movements sorted every one of them with all
-- its columns (1M notifications: 0.72 s against 0.45 s).
sales as (
    select
        purchase_month as month,
        currency,
        product_type,
        count(*) as sales,
        sum(gross_milli) as gross_milli,
        0 as refunds,
        0 as refunded_milli,
        sum(sale_proceeds_milli) as proceeds_milli,
        0 as prior_period_refunds,
        0 as prior_period_refunded_milli,
        count(*) filter (where is_unpriced) as unpriced
    from transactions
    where is_paid
        and purchase_month is not null
    group by 1, 2, 3
),

refunds as (
    select
        refund_month as month,
        currency,
        product_type,
        0 as sales,
        0 as gross_milli,
        1 as refunds,
        refund_milli as refunded_milli,
        -refund_proceeds_milli as proceeds_milli,
        case
            when purchase_month < refund_month then 1 else 0
        end as prior_period_refunds,
        case
            when purchase_month < refund_month then refund_milli else 0
        end as prior_period_refunded_milli,
        case when is_unpriced then 1 else 0 end as unpriced
    from refunded_transactions
),

movements as (
    select * from sales
    union all
    select * from refunds
),

final as (
    select
        month,
        currency,
        product_type,
        sum(sales) as sales,
        sum(gross_milli) as gross_milli,
        sum(refunds) as refunds,
        sum(refunded_milli) as refunded_milli,
        sum(gross_milli) - sum(refunded_milli) as net_milli,
        sum(proceeds_milli) as est_proceeds_milli,
        sum(prior_period_refunds) as prior_period_refunds,
        sum(prior_period_refunded_milli) as prior_period_refunded_milli,
        sum(unpriced) as unpriced
    from movements
    group by 1, 2, 3
)

select * from final;
