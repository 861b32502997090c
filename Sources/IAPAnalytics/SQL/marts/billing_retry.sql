-- Grain: one row per (month, product_id) with at least one billing episode.
-- Documentation/Reports.md billing_retry.csv (episodes = recovered + expired + pending).
with

billing_episodes as (
    select * from {{ ref('int_billing_episodes') }}
),

final as (
    select
        episode_month as month,
        product_id,
        count(*) as episodes,
        count(*) filter (where is_recovered) as recovered,
        count(*) filter (where is_recovered_in_grace) as recovered_in_grace,
        count(*) filter (where is_expired) as expired,
        count(*) filter (where is_pending) as pending
    from billing_episodes
    group by 1, 2
)

select * from final;
