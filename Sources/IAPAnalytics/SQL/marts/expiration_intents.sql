-- Grain: one row per (month, product_id, expiration_intent) with at least one
-- churn event other than refunded. Documentation/Reports.md expiration_intents.csv.
with

churn_events as (
    select * from {{ ref('int_churn_events') }}
),

final as (
    select
        churn_month as month,
        product_id,
        expiration_intent,
        count(*) as subscriptions
    from churn_events
    where reason <> {{ churn_reason('refunded') }}
    group by 1, 2, 3
)

select * from final;
