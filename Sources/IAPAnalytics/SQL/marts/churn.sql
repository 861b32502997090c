-- Grain: one row per (month, product_id, churn_type, reason) with at least
-- one churn event. Documentation/Reports.md churn.csv.
with

churn_events as (
    select * from {{ ref('int_churn_events') }}
),

final as (
    select
        churn_month as month,
        product_id,
        churn_type,
        reason,
        count(*) as subscriptions
    from churn_events
    group by 1, 2, 3, 4
)

select * from final;
