-- Mart looked_up_orders (order_lookups.csv; the store already has a table
-- named order_lookups). Grain: one row per order lookup (lookup_id) with a month: the month of its
-- document time, else of its receivedAt. iaplens's own order_lookups.csv
-- (columns in ReportColumns.orderLookups).
-- transaction_ids, refunded_transactions and account_ids are sorted (byte
-- order) and joined by ';'; unlinked transactions add no account ID.
-- Decision: a lookup with neither time is in no month and not written;
-- order lookups are not "counted activity" (not one of the six CSVs).
with

lookups as (
    select * from {{ ref('stg_store__order_lookups') }}
),

lookup_transactions as (
    select * from {{ ref('stg_store__order_lookup_transactions') }}
),

refunded_transactions as (
    select * from {{ ref('int_refunds') }}
),

transaction_accounts as (
    select * from {{ ref('int_transaction_accounts') }}
),

listed_transaction_ids as (
    select distinct
        lookup_id,
        count(*) over lookup_window as transactions,
        {{ string_agg(transaction_id, ';') }} over lookup_window
            as transaction_ids
    from lookup_transactions
    window lookup_window as (
        partition by lookup_id order by transaction_id
        rows between unbounded preceding and unbounded following
    )
),

listed_refunds as (
    select distinct
        lookup_transactions.lookup_id,
        {{ string_agg(lookup_transactions.transaction_id, ';') }} over (
            partition by lookup_transactions.lookup_id
            order by lookup_transactions.transaction_id
            rows between unbounded preceding and unbounded following
        ) as refunded_transactions
    from lookup_transactions
    inner join refunded_transactions
        on lookup_transactions.transaction_id
        = refunded_transactions.transaction_id
),

listed_account_ids as (
    select distinct
        lookup_transactions.lookup_id,
        transaction_accounts.account_id
    from lookup_transactions
    inner join transaction_accounts
        on lookup_transactions.transaction_id
        = transaction_accounts.transaction_id
    where transaction_accounts.account_id is not null
),

listed_accounts as (
    select distinct
        lookup_id,
        {{ string_agg(account_id, ';') }} over (
            partition by lookup_id order by account_id
            rows between unbounded preceding and unbounded following
        ) as account_ids
    from listed_account_ids
),

final as (
    select
        {{ month_of_ms(lookups.looked_up_at_ms) }}
            as month,
        lookups.lookup_id,
        lookups.order_id,
        lookups.lookup_status as status,
        coalesce(listed_transaction_ids.transactions, 0) as transactions,
        listed_transaction_ids.transaction_ids,
        listed_refunds.refunded_transactions,
        listed_accounts.account_ids,
        lookups.note
    from lookups
    left join listed_transaction_ids
        on lookups.lookup_id = listed_transaction_ids.lookup_id
    left join listed_refunds
        on lookups.lookup_id = listed_refunds.lookup_id
    left join listed_accounts
        on lookups.lookup_id = listed_accounts.lookup_id
    where lookups.looked_up_at_ms is not null
)

select * from final;
