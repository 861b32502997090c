-- Grain: one row per transaction (transaction_id) with the account it
-- belongs to. REPORTS.md "Account": accounts.csv mapping of the lower-cased
-- appAccountToken, else the token, else sub:<originalTransactionId> for
-- auto-renewables, else none (unlinked).
-- Built as a TEMP table indexed by account for the flag rules.
-- Decision: an auto-renewable without originalTransactionId uses its own
-- transactionId.
drop table if exists temp.int_transaction_accounts;

-- The mapping, lower-cased as stg_reference__accounts gives it, in a TEMP
-- table indexed by token: joining the view directly compares every
-- transaction with every mapping row (lower() defeats the primary key), which
-- took 74 s for 80k transactions x 11k accounts and grows quadratically.
drop table if exists temp.int_transaction_accounts__tokens;

create temp table int_transaction_accounts__tokens as
select * from stg_reference__accounts;

create index temp.int_transaction_accounts__tokens_by_token
    on int_transaction_accounts__tokens (app_account_token);

create temp table int_transaction_accounts as

with

transactions as (
    select * from temp.int_transactions_priced
),

accounts as (
    select * from temp.int_transaction_accounts__tokens
),

final as (
    select
        transactions.transaction_id,
        case
            when accounts.account_id is not null then accounts.account_id
            when transactions.app_account_token is not null
                then transactions.app_account_token
            when transactions.product_type = 'auto_renewable'
                then 'sub:' || coalesce(
                    transactions.original_transaction_id,
                    transactions.transaction_id
                )
        end as account_id,
        transactions.product_id,
        transactions.product_type,
        transactions.currency,
        transactions.gross_milli,
        transactions.is_unpriced,
        transactions.is_paid,
        transactions.is_refunded,
        transactions.refund_milli,
        transactions.purchased_at_ms,
        transactions.revoked_at_ms
    from transactions
    left join accounts
        on transactions.app_account_token = accounts.app_account_token
)

select * from final;

create unique index temp.int_transaction_accounts_by_id
    on int_transaction_accounts (transaction_id);

-- By account, then purchase date: flagged_accounts counts an account's paid
-- purchases before each window's end from this index alone.
create index temp.int_transaction_accounts_by_account
    on int_transaction_accounts (account_id, purchased_at_ms, is_paid);
