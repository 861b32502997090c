-- Grain: one row per (month, account_id) flagged in that month's window, for
-- every month written. The queue's columns read every month of the observed
-- range (int_flag_windows), written or not: a month's queue does not depend on
-- the months --month asks for. Documentation/Reports.md flagged_accounts.csv: the month windows of
-- account_flags, where the rules are; then the review queue's columns
-- (Documentation/Reports.md "The review queue"):
-- * first_flagged_month: the first month of the observed range the account
--   was flagged in;
-- * queue_status: 'new' (first flagged this month), 'active' (flagged before,
--   and a refund, a refund request or a declined refund of its own in this
--   month, after its `cleared` review if it has one in force), 'carried'
--   (flagged before, nothing new this month);
-- * at_stake_milli / at_stake_currency: the money at stake in the account's
--   main currency, and stakes_by_currency every currency's (not a column of
--   the CSV: the report converts it into --reporting-currency when one is
--   set), as int_flag_stakes defines them; 0 and '' when nothing is at stake;
-- * review: the reviews file's decision in force at the month's end (the
--   latest reviewed_at before it, then the later line); '' when none.
with

account_flags as (
    select * from {{ ref('account_flags') }}
),

report_months as (
    select * from {{ ref('report_months') }}
),

refunds as not materialized (
    select * from {{ ref('int_refunds') }}
),

transaction_accounts as not materialized (
    select * from {{ ref('int_transaction_accounts') }}
),

notifications as not materialized (
    select * from {{ ref('stg_store__notifications') }}
),

reviews as (
    select * from {{ ref('stg_reference__reviews') }}
),

-- The money at stake (int_flag_stakes): its own table, indexed by month and
-- account, so the join below is a look-up.
main_stakes as (
    select * from {{ ref('int_flag_stakes') }}
),

flagged as (
    select
        account_flags.*,
        report_months.month_end_ms,
        {{ day_start_ms(account_flags.month || '-01') }} as month_start_ms
    from account_flags
    inner join report_months
        on report_months.month = account_flags.month
    where account_flags.month is not null
),

first_flagged as (
    select account_id, min(month) as first_flagged_month
    from flagged
    group by account_id
),

-- The decision in force at the month's end: the latest review before it,
-- then the later line of the file.
in_force as (
    select
        flagged.month,
        flagged.account_id,
        (
            select review.line
            from reviews as review
            where review.account_id = flagged.account_id
                and review.reviewed_at_ms < flagged.month_end_ms
            order by review.reviewed_at_ms desc, review.line desc
            limit 1
        ) as review_line
    from flagged
),

-- The account's own events of the month: refunds, refund requests, declined
-- refunds, with their instants.
events as (
    select refunds.account_id, refunds.revoked_at_ms as at_ms
    from refunds
    union all
    select transaction_accounts.account_id, notifications.signed_at_ms
    from notifications
    inner join transaction_accounts
        on transaction_accounts.transaction_id = notifications.transaction_id
    where notifications.notification_type in ('CONSUMPTION_REQUEST', 'REFUND_DECLINED')
),

-- The events of flagged accounts only, built once: looked up per flagged month
-- below (a correlated look-up into the union above ran it again for every
-- flagged row, minutes at 1M notifications).
flagged_account_events as materialized (
    select events.account_id, events.at_ms
    from events
    where events.account_id in (select account_id from first_flagged)
),

reviewed as (
    select
        in_force.month,
        in_force.account_id,
        coalesce(reviews.decision, '') as review,
        reviews.reviewed_at_ms
    from in_force
    left join reviews
        on reviews.line = in_force.review_line
),

activity as (
    select
        flagged.month,
        flagged.account_id,
        count(flagged_account_events.at_ms) > 0 as has_activity
    from flagged
    inner join reviewed
        on reviewed.month = flagged.month
        and reviewed.account_id = flagged.account_id
    left join flagged_account_events
        on flagged_account_events.account_id = flagged.account_id
        and flagged_account_events.at_ms >= flagged.month_start_ms
        and flagged_account_events.at_ms < flagged.month_end_ms
        and (
            reviewed.review <> 'cleared'
            or flagged_account_events.at_ms > reviewed.reviewed_at_ms
        )
    group by flagged.month, flagged.account_id
),

final as (
    select
        flagged.month,
        flagged.account_id,
        flagged.rules,
        flagged.refunds_90d,
        flagged.consumable_refunds_90d,
        flagged.declined_90d,
        flagged.lifetime_purchases,
        flagged.lifetime_refunds,
        flagged.first_refund,
        flagged.last_refund,
        flagged.evidence,
        flagged.first_refund_ms,
        flagged.last_refund_ms,
        case
            when first_flagged.first_flagged_month = flagged.month then 'new'
            when activity.has_activity then 'active'
            else 'carried'
        end as queue_status,
        first_flagged.first_flagged_month,
        coalesce(main_stakes.amount_milli, 0) as at_stake_milli,
        coalesce(main_stakes.currency, '') as at_stake_currency,
        reviewed.review,
        coalesce(main_stakes.stakes_by_currency, '') as stakes_by_currency
    from flagged
    inner join report_months
        on report_months.month = flagged.month
        and report_months.is_written
    inner join first_flagged
        on first_flagged.account_id = flagged.account_id
    inner join activity
        on activity.month = flagged.month
        and activity.account_id = flagged.account_id
    inner join reviewed
        on reviewed.month = flagged.month
        and reviewed.account_id = flagged.account_id
    left join main_stakes
        on main_stakes.month = flagged.month
        and main_stakes.account_id = flagged.account_id
)

select * from final;
