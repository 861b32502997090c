-- Grain: one row per (month, product_id) with any value above zero.
-- Documentation/Reports.md subscriptions.csv: the base behind the churn:
-- active at the start, new paid, churned by type (the month's churn.csv
-- rows, summed by churn_type, so churn rate = churned / active_start),
-- active at the end, free trials started, ended and converted.
with

base as (
    select * from {{ ref('int_subscription_base') }}
),

churn as (
    select * from {{ ref('churn') }}
),

measures as (
    select
        month, product_id, active_start, new_paid,
        0 as churned_voluntary, 0 as churned_involuntary, 0 as churned_other,
        active_end, trials_started, trials_ended, trials_converted
    from base
    union all
    select
        month, product_id, 0, 0,
        case when churn_type = {{ churn_type('voluntary') }} then subscriptions else 0 end,
        case when churn_type = {{ churn_type('involuntary') }} then subscriptions else 0 end,
        case when churn_type = {{ churn_type('other') }} then subscriptions else 0 end,
        0, 0, 0, 0
    from churn
),

totals as (
    select
        month,
        product_id,
        sum(active_start) as active_start,
        sum(new_paid) as new_paid,
        sum(churned_voluntary) as churned_voluntary,
        sum(churned_involuntary) as churned_involuntary,
        sum(churned_other) as churned_other,
        sum(active_end) as active_end,
        sum(trials_started) as trials_started,
        sum(trials_ended) as trials_ended,
        sum(trials_converted) as trials_converted
    from measures
    group by 1, 2
),

final as (
    select * from totals
    where active_start > 0 or new_paid > 0 or churned_voluntary > 0 or churned_involuntary > 0
        or churned_other > 0 or active_end > 0 or trials_started > 0 or trials_ended > 0
        or trials_converted > 0
)

select * from final;
