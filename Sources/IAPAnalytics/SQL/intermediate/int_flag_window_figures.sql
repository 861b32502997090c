-- Grain: one row per (window_key, account_id) of an account with a refund
-- before the window's end: the figures the flag rules read (account_flags).
-- The `_90d` columns count within the window, which is --window-days long
-- (90 by default): flagged_accounts.csv keeps the names of
-- Documentation/Reports.md whatever the option says.
-- * refunds_90d, consumable_refunds_90d: refunds dated in the window
--   (int_flag_window_refunds); first/last refund and the evidence (their
--   transaction IDs, ';'-separated, by refund date) likewise.
-- * declined_90d: REFUND_DECLINED notifications of the account in the window.
-- * lifetime_refunds, lifetime_purchases: before the window's end (purchases:
--   paid transactions by purchaseDate; refunds by refund date).
-- * has_consumable_burst: burst_refunds_min consumable refunds in the window
--   whose refund dates lie within burst_window_ms of the first of them.
-- transaction_accounts and notifications are `not materialized`: each is read
-- twice, and SQLite would otherwise copy a whole TEMP table into an unindexed
-- ephemeral one, PostgreSQL every notification first (1M: 1.3 s).
with

analysis_parameters as (
    select * from {{ source('analysis_parameters') }}
),

windows as (
    select * from {{ ref('int_flag_windows') }}
),

window_refunds as (
    select * from {{ ref('int_flag_window_refunds') }}
),

transaction_accounts as not materialized (
    select * from {{ ref('int_transaction_accounts') }}
),

refunds as not materialized (
    select * from {{ ref('int_refunds') }}
),

refunding_account_transactions as not materialized (
    select * from {{ ref('int_refunding_account_transactions') }}
),

notifications as not materialized (
    select * from {{ ref('stg_store__notifications') }}
),

consumable_bursts as (
    select distinct
        first_refunds.window_key,
        first_refunds.account_id
    from window_refunds as first_refunds
    inner join window_refunds as later_refunds
        on first_refunds.window_key = later_refunds.window_key
        and first_refunds.account_id = later_refunds.account_id
        and later_refunds.revoked_at_ms >= first_refunds.revoked_at_ms
    cross join analysis_parameters
    where first_refunds.is_consumable
        and later_refunds.is_consumable
        and later_refunds.revoked_at_ms
        <= first_refunds.revoked_at_ms + analysis_parameters.burst_window_ms
    group by
        first_refunds.window_key,
        first_refunds.account_id,
        first_refunds.transaction_id,
        analysis_parameters.burst_refunds_min
    having count(*) >= analysis_parameters.burst_refunds_min
),

window_refund_summaries as (
    select distinct
        window_key,
        account_id,
        count(*) over account_window as refunds_90d,
        count(*) filter (where is_consumable) over account_window
            as consumable_refunds_90d,
        min(revoked_at_ms) over account_window as first_refund_ms,
        max(revoked_at_ms) over account_window as last_refund_ms,
        {{ string_agg(transaction_id, ';') }} over account_window as evidence
    from window_refunds
    window account_window as (
        partition by window_key, account_id
        order by revoked_at_ms, transaction_id
        rows between unbounded preceding and unbounded following
    )
),

declines as (
    select
        transaction_accounts.account_id,
        notifications.notified_at_ms
    from notifications
    inner join transaction_accounts
        on notifications.transaction_id = transaction_accounts.transaction_id
    where notifications.notification_type = 'REFUND_DECLINED'
        and transaction_accounts.account_id is not null
),

-- As for refunds: a time range for month windows, the account for request
-- windows.
declined_in_windows as (
    select
        windows.window_key,
        declines.account_id,
        count(*) as declined_90d
    from declines
    inner join windows
        on declines.notified_at_ms >= windows.window_start_ms
        and declines.notified_at_ms < windows.window_end_ms
    where windows.window_kind = 'month'
    group by 1, 2
    union all
    select
        windows.window_key,
        declines.account_id,
        count(*) as declined_90d
    from declines
    inner join windows
        on declines.account_id = windows.account_id
        and declines.notified_at_ms >= windows.window_start_ms
        and declines.notified_at_ms < windows.window_end_ms
    where windows.window_kind = 'request'
    group by 1, 2
),

refunding_accounts as (
    select
        account_id,
        min(revoked_at_ms) as first_refund_ms
    from refunds
    where account_id is not null
    group by account_id
),

window_accounts as (
    select
        windows.window_key,
        windows.month,
        windows.window_end_ms,
        refunding_accounts.account_id
    from windows
    inner join refunding_accounts
        on refunding_accounts.first_refund_ms < windows.window_end_ms
    where windows.window_kind = 'month'
    union all
    select
        windows.window_key,
        windows.month,
        windows.window_end_ms,
        refunding_accounts.account_id
    from windows
    inner join refunding_accounts
        on refunding_accounts.account_id = windows.account_id
        and refunding_accounts.first_refund_ms < windows.window_end_ms
    where windows.window_kind = 'request'
),

-- One row per (window, account) with its lifetime counts, each one look-up:
-- refunds counted as a range of int_refunds_by_account (account_id,
-- revoked_at_ms) (`refunds` is not materialized, so the lookup reaches that
-- index; an account has a refund or two); paid purchases read from the
-- account's last purchase before the window's end, which carries the running
-- count of its paid purchases (int_refunding_account_transactions_by_account
-- covers it), instead of counting every earlier purchase. Joining every refund
-- and purchase to every later window and grouping sorted one row per (window,
-- transaction) instead: the slowest step of the analysis at 1M notifications.
-- Materialised so each look-up runs once per row.
lifetime_counts as materialized (
    select
        window_accounts.window_key,
        window_accounts.month,
        window_accounts.account_id,
        (
            select count(*)
            from refunds
            where refunds.account_id = window_accounts.account_id
                and refunds.revoked_at_ms < window_accounts.window_end_ms
        ) as lifetime_refunds,
        coalesce((
            select refunding_account_transactions.paid_purchases_through
            from refunding_account_transactions
            where refunding_account_transactions.account_id
                = window_accounts.account_id
                and refunding_account_transactions.purchased_at_ms
                < window_accounts.window_end_ms
            order by refunding_account_transactions.purchased_at_ms desc
            limit 1
        ), 0) as lifetime_purchases
    from window_accounts
)

select
    lifetime_counts.window_key,
    lifetime_counts.month,
    lifetime_counts.account_id,
    coalesce(window_refund_summaries.refunds_90d, 0) as refunds_90d,
    coalesce(window_refund_summaries.consumable_refunds_90d, 0)
        as consumable_refunds_90d,
    coalesce(declined_in_windows.declined_90d, 0) as declined_90d,
    lifetime_counts.lifetime_purchases,
    lifetime_counts.lifetime_refunds,
    window_refund_summaries.first_refund_ms,
    window_refund_summaries.last_refund_ms,
    window_refund_summaries.evidence,
    consumable_bursts.account_id is not null as has_consumable_burst
from lifetime_counts
left join window_refund_summaries
    on lifetime_counts.window_key = window_refund_summaries.window_key
    and lifetime_counts.account_id = window_refund_summaries.account_id
left join declined_in_windows
    on lifetime_counts.window_key = declined_in_windows.window_key
    and lifetime_counts.account_id = declined_in_windows.account_id
left join consumable_bursts
    on lifetime_counts.window_key = consumable_bursts.window_key
    and lifetime_counts.account_id = consumable_bursts.account_id;
