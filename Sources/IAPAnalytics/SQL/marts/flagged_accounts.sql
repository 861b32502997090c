-- Grain: one row per (month, account_id) flagged in that month's window, for
-- every month written. Documentation/Reports.md flagged_accounts.csv: the month windows of
-- account_flags, where the rules are.
with

account_flags as (
    select * from {{ ref('account_flags') }}
),

final as (
    select
        month,
        account_id,
        rules,
        refunds_90d,
        consumable_refunds_90d,
        declined_90d,
        lifetime_purchases,
        lifetime_refunds,
        first_refund,
        last_refund,
        evidence,
        first_refund_ms,
        last_refund_ms
    from account_flags
    where month is not null
)

select * from final;
