-- Grain: one row per transaction (transaction_id) of an account with at least
-- one refund (int_refunds): the only accounts the flag rules look at
-- (Documentation/Reports.md flagged_accounts.csv: every figure is of an account
-- with a refund before the window's end), so the only ones whose purchases
-- are counted (int_flag_window_figures) or listed (flagged_account_events).
-- Built as a TEMP table indexed by account: indexing every transaction of the
-- store by account instead cost 1.1-1.4 s of the 1M analyze, on the path every
-- other model waits on; these are about a fifth of them.
with

transaction_accounts as (
    select * from {{ ref('int_transaction_accounts') }}
),

refunds as (
    select * from {{ ref('int_refunds') }}
)

select
    transaction_accounts.*,
    -- The account's paid purchases up to this one's purchase time, ties
    -- included (a RANGE frame): the count int_flag_window_figures reads from
    -- an account's last purchase before a window's end. A purchase without a
    -- date counts nowhere (no window's end is after it).
    sum(
        case
            when transaction_accounts.is_paid
                and transaction_accounts.purchased_at_ms is not null
                then 1
            else 0
        end
    ) over (
        partition by transaction_accounts.account_id
        order by transaction_accounts.purchased_at_ms
        range between unbounded preceding and current row
    ) as paid_purchases_through
from transaction_accounts
where transaction_accounts.account_id in (
    select refunds.account_id from refunds
);
