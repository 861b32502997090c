-- Grain: one row per (window_key, transaction_id): each refund of an account
-- (int_refunds, linked transactions only) whose refund date lies in the
-- window (int_flag_windows), with the window's account. A month window takes
-- every account's refunds through a time range; a request window only its
-- account's, through the account. Unlinked transactions never count.
with

windows as (
    select * from {{ ref('int_flag_windows') }}
),

-- int_refunds holds every refunded transaction with its account: reading it
-- instead of filtering int_transaction_accounts saves a scan of every
-- transaction.
account_refunds as (
    select
        account_id,
        transaction_id,
        product_type = {{ product_type('consumable') }} as is_consumable,
        revoked_at_ms
    from {{ ref('int_refunds') }}
    where account_id is not null
)

select
    windows.window_key,
    account_refunds.account_id,
    account_refunds.transaction_id,
    account_refunds.is_consumable,
    account_refunds.revoked_at_ms
from windows
inner join account_refunds
    on account_refunds.revoked_at_ms >= windows.window_start_ms
    and account_refunds.revoked_at_ms < windows.window_end_ms
where windows.window_kind = 'month'
union all
select
    windows.window_key,
    account_refunds.account_id,
    account_refunds.transaction_id,
    account_refunds.is_consumable,
    account_refunds.revoked_at_ms
from windows
inner join account_refunds
    on account_refunds.account_id = windows.account_id
    and account_refunds.revoked_at_ms >= windows.window_start_ms
    and account_refunds.revoked_at_ms < windows.window_end_ms
where windows.window_kind = 'request';
