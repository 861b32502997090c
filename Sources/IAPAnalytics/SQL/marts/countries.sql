-- Grain: one row per (month, storefront): subscriptions.csv's counts summed
-- over products, per storefront, and the month's refunds and units sold.
-- Documentation/Reports.md countries.csv: the V2 storefront of the
-- transaction that decides each count ('unknown' where none carries one: V1):
-- * active_start / active_end: the current period (int_active_subscriptions);
-- * new_paid: the first paid period (the subscriptions new_paid counts);
-- * churned_*: the period whose end churn.csv counts;
-- * refunds: the refunds reconciliation.csv counts (one each), units_sold:
--   sum of quantity of the sales it counts, by the refunded or sold
--   transaction's storefront.
with

active as not materialized (
    select * from {{ ref('int_active_subscriptions') }}
),

boundaries as not materialized (
    select * from {{ ref('int_month_boundaries') }}
),

periods as not materialized (
    select * from {{ ref('int_subscription_periods') }}
),

churn_events as (
    select * from {{ ref('int_churn_events') }}
),

transactions as not materialized (
    select * from {{ ref('int_transactions_priced') }}
),

refunded_transactions as (
    select * from {{ ref('int_refunds') }}
),

-- Counted per instant first, then given to the month's rows: the instant's
-- rows are grouped once, not once per month edge joined to them.
active_by_instant as (
    select
        at_ms,
        storefront,
        count(*) as subscriptions
    from active
    group by at_ms, storefront
),

active_counts as (
    select
        boundaries.month,
        active_by_instant.storefront,
        case when boundaries.edge = 'start' then active_by_instant.subscriptions else 0 end as active_start,
        case when boundaries.edge = 'end' then active_by_instant.subscriptions else 0 end as active_end
    from boundaries
    inner join active_by_instant
        on active_by_instant.at_ms = boundaries.at_ms
),

new_paid as (
    select
        month,
        coalesce(storefront, 'unknown') as storefront,
        count(*) as new_paid
    from {{ ref('int_subscription_starts') }}
    group by 1, 2
),

churned as (
    select
        churn_events.churn_month as month,
        coalesce(periods.storefront, 'unknown') as storefront,
        count(*) filter (where churn_events.churn_type = {{ churn_type('voluntary') }}) as churned_voluntary,
        count(*) filter (where churn_events.churn_type = {{ churn_type('involuntary') }}) as churned_involuntary,
        count(*) filter (where churn_events.churn_type = {{ churn_type('other') }}) as churned_other
    from churn_events
    left join periods
        on periods.lineage_id = churn_events.lineage_id
        and periods.transaction_id = churn_events.transaction_id
    group by 1, 2
),

sold as (
    select
        purchase_month as month,
        storefront,
        sum(quantity) as units_sold
    from transactions
    where is_paid
        and purchase_month is not null
    group by 1, 2
),

refunded as (
    select
        refund_month as month,
        storefront,
        count(*) as refunds
    from refunded_transactions
    group by 1, 2
),

measures as (
    select month, storefront, active_start, 0 as new_paid, 0 as churned_voluntary, 0 as churned_involuntary,
        0 as churned_other, active_end, 0 as refunds, 0 as units_sold
    from active_counts
    union all
    select month, storefront, 0, new_paid, 0, 0, 0, 0, 0, 0 from new_paid
    union all
    select month, storefront, 0, 0, churned_voluntary, churned_involuntary, churned_other, 0, 0, 0 from churned
    union all
    select month, storefront, 0, 0, 0, 0, 0, 0, 0, units_sold from sold
    union all
    select month, storefront, 0, 0, 0, 0, 0, 0, refunds, 0 from refunded
),

final as (
    select
        month,
        storefront,
        sum(active_start) as active_start,
        sum(new_paid) as new_paid,
        sum(churned_voluntary) as churned_voluntary,
        sum(churned_involuntary) as churned_involuntary,
        sum(churned_other) as churned_other,
        sum(active_end) as active_end,
        sum(refunds) as refunds,
        sum(units_sold) as units_sold
    from measures
    group by month, storefront
)

select * from final
where active_start > 0 or new_paid > 0 or churned_voluntary > 0 or churned_involuntary > 0
    or churned_other > 0 or active_end > 0 or refunds > 0 or units_sold > 0;
