-- Grain: one row per (month, product_id, measure) of the subscriber base.
-- Documentation/Reports.md subscriptions.csv: auto-renewable subscriptions
-- (an originalTransactionId) and their paid periods (purchaseDate to
-- expiresDate), from the churn model's periods (int_subscription_periods).
-- * active_start / active_end: subscriptions with a paid period of the
--   product covering the month's first millisecond / the next month's (T in
--   the month of T), not refunded by then: counted from
--   int_active_subscriptions, the one home of "active" (one row per instant,
--   product and subscription), which mrr.csv and countries.csv count too.
-- * new_paid: a subscription's first paid period purchased in the month (int_subscription_starts),
--   unless its originalPurchaseDate is before its earliest known purchase
--   (the archive missed its start).
-- * trials: free trials (gross 0, FREE_TRIAL / offerType 1 / V1
--   is_trial_period) started in the month; ended in the month and by T; of
--   those, converted when the subscription's next transaction is paid and
--   purchased within 60 days of the trial's end.
-- Built as a TEMP table.
with

-- Read in place by every use below: a materialized copy of a million periods
-- cost more than scanning the table again.
periods as not materialized (
    select * from {{ ref('int_subscription_periods') }}
),

transactions as not materialized (
    select * from {{ ref('int_transactions_priced') }}
),

-- Read in place by both uses, so the range join below keeps its index.
boundaries as not materialized (
    select * from {{ ref('int_month_boundaries') }}
),

analysis_parameters as (
    select * from {{ source('analysis_parameters') }}
),

active_subscriptions as not materialized (
    select * from {{ ref('int_active_subscriptions') }}
),

-- Grouped by the instant, an integer: a text month and edge in the sort key
-- cost a second per million rows.
active_at as (
    select
        at_ms,
        product_id,
        count(*) as subscriptions
    from active_subscriptions
    group by at_ms, product_id
),

active as (
    select
        boundaries.month,
        boundaries.edge,
        active_at.product_id,
        active_at.subscriptions
    from boundaries
    inner join active_at
        on active_at.at_ms = boundaries.at_ms
),

starts as (
    select * from {{ ref('int_subscription_starts') }}
),

new_paid as (
    select
        month,
        product_id,
        count(*) as subscriptions
    from starts
    group by 1, 2
),

trials as (
    select
        periods.*,
        -- The next transaction is paid: looked up by the subscription index
        -- of int_transactions_priced (a seek per trial, not a scan).
        periods.next_purchased_at_ms is not null
        and periods.next_purchased_at_ms <= periods.expires_at_ms + {{ rule('billing_retry_window_ms') }}
        and exists (
            select 1 from transactions as next_transactions
            where next_transactions.original_transaction_id = periods.original_transaction_id
                and next_transactions.purchased_at_ms = periods.next_purchased_at_ms
                and next_transactions.is_paid
        ) as is_converted
    from periods
    where periods.is_free_trial
),

trials_started as (
    select
        {{ month_of_ms(purchased_at_ms) }} as month,
        product_id,
        count(*) as trials
    from trials
    group by 1, 2
),

trials_ended as (
    select
        {{ month_of_ms(trials.expires_at_ms) }} as month,
        trials.product_id,
        count(*) as trials,
        count(*) filter (where trials.is_converted) as converted
    from trials
    cross join analysis_parameters
    where trials.expires_at_ms <= analysis_parameters.as_of_ms
    group by 1, 2
),

measures as (
    select month, product_id,
        case when edge = 'start' then subscriptions else 0 end as active_start,
        0 as new_paid,
        case when edge = 'end' then subscriptions else 0 end as active_end,
        0 as trials_started, 0 as trials_ended, 0 as trials_converted
    from active
    union all
    select month, product_id, 0, subscriptions, 0, 0, 0, 0 from new_paid
    union all
    select month, product_id, 0, 0, 0, trials, 0, 0 from trials_started
    union all
    select month, product_id, 0, 0, 0, 0, trials, converted from trials_ended
),

final as (
    select
        month,
        product_id,
        sum(active_start) as active_start,
        sum(new_paid) as new_paid,
        sum(active_end) as active_end,
        sum(trials_started) as trials_started,
        sum(trials_ended) as trials_ended,
        sum(trials_converted) as trials_converted
    from measures
    group by 1, 2
)

select * from final;
