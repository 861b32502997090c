-- Grain: one row per auto-renewable subscription period (transaction_id)
-- with a purchase date, and N, the subscription's next transaction by
-- purchaseDate (strictly later). REPORTS.md churn (N, E) and billing_retry
-- (recovery).
-- Decisions: the subscription is the originalTransactionId; any of its
-- transactions (paid or not) can be N; transactions without a purchase date
-- take no part.
-- Built as a TEMP table.
drop table if exists temp.int_subscription_periods;

create temp table int_subscription_periods as

with

transactions as (
    select * from temp.int_transactions_priced
),

analysis_parameters as (
    select * from main.analysis_parameters
),

-- Only the columns used below go through the window: it walks every
-- transaction of the store, and carrying all of int_transactions_priced's
-- columns through its sort buffer made it one of the slowest steps.
subscription_transactions as (
    select
        transaction_id,
        original_transaction_id,
        product_id,
        product_type,
        is_paid,
        is_refunded,
        purchased_at_ms,
        expires_at_ms,
        revoked_at_ms,
        min(purchased_at_ms) over (
            partition by original_transaction_id
            order by purchased_at_ms
            range between 1 following and unbounded following
        ) as next_purchased_at_ms
    from transactions
    where original_transaction_id is not null
        and purchased_at_ms is not null
),

final as (
    select
        subscription_transactions.transaction_id,
        subscription_transactions.original_transaction_id,
        subscription_transactions.product_id,
        subscription_transactions.is_paid,
        subscription_transactions.is_refunded,
        subscription_transactions.purchased_at_ms,
        subscription_transactions.expires_at_ms,
        subscription_transactions.revoked_at_ms,
        subscription_transactions.next_purchased_at_ms,
        -- E: N's purchase date, else T.
        coalesce(
            subscription_transactions.next_purchased_at_ms,
            analysis_parameters.as_of_ms
        ) as ended_at_ms
    from subscription_transactions
    cross join analysis_parameters
    where subscription_transactions.product_type = 'auto_renewable'
)

select * from final;

create unique index temp.int_subscription_periods_by_id
    on int_subscription_periods (transaction_id);
