-- Grain: one row per event on a flagged account's timeline in a month:
-- (month, account_id, kind, transaction_id, event time). The evidence
-- timeline of report.md (FlaggedAccountTimeline).
-- Events up to the window's end (exclusive): purchases (paid transactions,
-- gross), refunds (refund amount), and REFUND_REVERSED, REFUND_DECLINED and
-- CONSUMPTION_REQUEST notifications (by signedDate).
-- Decision: amounts of unpriced transactions are empty; purchases are the
-- paid ones, as counted in lifetime_purchases.
-- Only the flagged accounts' events are gathered (through the account index
-- of int_refunding_account_transactions: a flagged account has a refund):
-- building every account's timeline first materialised one row per
-- transaction of the store and indexed it by account on every run.
with

flagged_accounts as (
    select * from {{ ref('flagged_accounts') }}
),

report_months as (
    select * from {{ ref('report_months') }}
),

transaction_accounts as not materialized (
    select * from {{ ref('int_transaction_accounts') }}
),

refunding_account_transactions as not materialized (
    select * from {{ ref('int_refunding_account_transactions') }}
),

notifications as (
    select * from {{ ref('stg_store__notifications') }}
),

flagged_account_ids as (
    select distinct account_id from flagged_accounts
),

account_events as (
    select
        account_id,
        purchased_at_ms as event_at_ms,
        'purchase' as kind,
        transaction_id,
        product_id,
        case when not is_unpriced then gross_milli end as amount_milli,
        currency
    from refunding_account_transactions
    where is_paid
        and purchased_at_ms is not null
        and account_id in (select account_id from flagged_account_ids)
    union all
    select
        account_id,
        revoked_at_ms as event_at_ms,
        'refund' as kind,
        transaction_id,
        product_id,
        case when not is_unpriced then refund_milli end as amount_milli,
        currency
    from refunding_account_transactions
    where is_refunded
        and account_id in (select account_id from flagged_account_ids)
    union all
    select
        transaction_accounts.account_id,
        notifications.notified_at_ms as event_at_ms,
        case notifications.notification_type
            when 'REFUND_REVERSED' then 'refund_reversed'
            when 'REFUND_DECLINED' then 'refund_declined'
            else 'consumption_request'
        end as kind,
        transaction_accounts.transaction_id,
        transaction_accounts.product_id,
        null as amount_milli,
        transaction_accounts.currency
    from notifications
    inner join transaction_accounts
        on notifications.transaction_id = transaction_accounts.transaction_id
    where notifications.notification_type in (
        'REFUND_REVERSED', 'REFUND_DECLINED', 'CONSUMPTION_REQUEST'
    )
        and transaction_accounts.account_id in (
            select account_id from flagged_account_ids
        )
),

final as (
    select
        flagged_accounts.month,
        flagged_accounts.account_id,
        account_events.event_at_ms,
        account_events.kind,
        account_events.transaction_id,
        account_events.product_id,
        account_events.amount_milli,
        account_events.currency
    from flagged_accounts
    inner join report_months
        on flagged_accounts.month = report_months.month
    inner join account_events
        on flagged_accounts.account_id = account_events.account_id
        and account_events.event_at_ms < report_months.month_end_ms
)

select * from final;
