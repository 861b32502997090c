-- Grain: one row for the whole store. The counts of the data-quality section
-- of report.md that come from the models (REPORTS.md "Amount": unpriced;
-- "Account": unlinked): transactions counted as a sale or a refund without a
-- price, and without an account.
drop table if exists data_quality;

create table data_quality as

with

transaction_accounts as (
    select * from temp.int_transaction_accounts
),

counted_transactions as (
    select * from transaction_accounts
    where is_paid or is_refunded
),

final as (
    select
        coalesce(sum(is_unpriced), 0) as unpriced_transactions,
        coalesce(sum(account_id is null), 0) as unlinked_transactions
    from counted_transactions
)

select * from final;
