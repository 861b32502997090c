-- Grain: one row per transaction (transaction_id) with the account it
-- belongs to. Documentation/Reports.md "Account": accounts.csv mapping of the lower-cased
-- appAccountToken, else the token, else sub:<originalTransactionId> for
-- auto-renewables, else none (unlinked).
-- A TEMP view: int_transactions_priced computes account_id (the rule is
-- spelled out there); this model names the columns the account models use.
-- The flag rules read accounts with a refund through the account index of
-- int_refunding_account_transactions.
with

transactions as (
    select * from {{ ref('int_transactions_priced') }}
),

final as (
    select
        transaction_id,
        account_id,
        product_id,
        product_type,
        currency,
        gross_milli,
        is_unpriced,
        is_paid,
        is_refunded,
        refund_milli,
        purchased_at_ms,
        revoked_at_ms
    from transactions
)

select * from final;
