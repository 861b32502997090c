-- Grain: one row per (month, account_id) flagged in that month's window
-- (account_flags) with money at stake. Documentation/Reports.md
-- flagged_accounts.csv "at_stake_milli": the refunded value in the window
-- plus the value of its consumption requests signed in the window that Apple
-- has not decided yet, summed per currency; the main currency is the one with
-- the most at stake (ties in byte order), and stakes_by_currency lists every
-- currency's amount, `CUR:milli;…` in currency order. flagged_accounts looks
-- it up by month and account (int_flag_stakes_by_month): a left join to the
-- ranking inlined there scanned every stake for every flagged row.
-- Built as a TEMP table.
with

account_flags as (
    select * from {{ ref('account_flags') }}
),

windows as (
    select * from {{ ref('int_flag_windows') }}
),

refunds as not materialized (
    select * from {{ ref('int_refunds') }}
),

transactions as not materialized (
    select * from {{ ref('int_transactions_priced') }}
),

consumption_requests as (
    select * from {{ ref('consumption_requests') }}
),

-- The month windows the accounts were flagged in, with their bounds.
flagged as (
    select
        account_flags.month,
        account_flags.account_id,
        windows.window_start_ms,
        windows.window_end_ms
    from account_flags
    inner join windows
        on windows.window_key = account_flags.window_key
    where account_flags.month is not null
        and windows.window_kind = 'month'
),

stakes as (
    select flagged.month, flagged.account_id, refunds.currency, refunds.refund_milli as amount_milli
    from flagged
    inner join refunds
        on refunds.account_id = flagged.account_id
        and refunds.revoked_at_ms >= flagged.window_start_ms
        and refunds.revoked_at_ms < flagged.window_end_ms
    union all
    select flagged.month, flagged.account_id, transactions.currency, transactions.gross_milli
    from flagged
    inner join consumption_requests
        on consumption_requests.account_id = flagged.account_id
        and consumption_requests.signed_at_ms >= flagged.window_start_ms
        and consumption_requests.signed_at_ms < flagged.window_end_ms
        and consumption_requests.is_verified
        and (consumption_requests.decided_at_ms is null or consumption_requests.decided_at_ms >= flagged.window_end_ms)
    inner join transactions
        on transactions.transaction_id = consumption_requests.transaction_id
),

stake_totals as (
    select month, account_id, currency, sum(amount_milli) as amount_milli
    from stakes
    group by month, account_id, currency
),

ranked as (
    select
        stake_totals.*,
        row_number() over (
            partition by month, account_id
            order by amount_milli desc, currency
        ) as stake_rank,
        {{ string_agg(currency || ':' || amount_milli, ';') }} over (
            partition by month, account_id
            order by currency
            rows between unbounded preceding and unbounded following
        ) as stakes_by_currency
    from stake_totals
),

final as (
    select
        month,
        account_id,
        currency,
        amount_milli,
        stakes_by_currency
    from ranked
    where stake_rank = 1
)

select * from final;
