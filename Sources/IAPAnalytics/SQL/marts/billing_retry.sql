-- Grain: one row per (month, product_id) with at least one billing episode.
-- REPORTS.md billing_retry.csv (episodes = recovered + expired + pending).
drop table if exists billing_retry;

create table billing_retry as

with

billing_episodes as (
    select * from temp.int_billing_episodes
),

final as (
    select
        episode_month as month,
        product_id,
        count(*) as episodes,
        sum(is_recovered) as recovered,
        sum(is_recovered_in_grace) as recovered_in_grace,
        sum(is_expired) as expired,
        sum(is_pending) as pending
    from billing_episodes
    group by 1, 2
)

select * from final;
