-- Grain: one row for the whole store. The counts of the data-quality section
-- of report.md that come from the models (Documentation/Reports.md "Money": unpriced;
-- "Account": unlinked): transactions counted as a sale or a refund without a
-- price, and without an account.
with

transaction_accounts as (
    select * from {{ ref('int_transaction_accounts') }}
),

counted_transactions as (
    select * from transaction_accounts
    where is_paid or is_refunded
),

final as (
    select
        count(*) filter (where is_unpriced) as unpriced_transactions,
        count(*) filter (where account_id is null) as unlinked_transactions
    from counted_transactions
)

select * from final;
