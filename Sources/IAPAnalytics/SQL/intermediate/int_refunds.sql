-- Grain: one row per refunded transaction (transaction_id). Documentation/Reports.md
-- "Refund", refunds.csv, consumable_losses.csv.
-- from_notifications: a notification (V2 or V1) carried this revocation
-- (same revocation date); otherwise the refund is known from refund-history
-- or order lookups only.
-- after_consumption_request: a V2 CONSUMPTION_REQUEST for the transaction
-- signed before the refund date.
-- Built as a TEMP table.
with

transactions as (
    select * from {{ ref('int_transactions_priced') }}
),

transaction_versions as (
    select * from {{ ref('stg_store__transaction_versions') }}
),

notifications as (
    select * from {{ ref('stg_store__notifications') }}
),

refunded_transactions as (
    select * from transactions
    where is_refunded
),

final as (
    select
        refunded_transactions.transaction_id,
        refunded_transactions.account_id,
        refunded_transactions.product_id,
        refunded_transactions.product_type,
        refunded_transactions.currency,
        refunded_transactions.storefront,
        refunded_transactions.is_unpriced,
        refunded_transactions.refund_milli,
        refunded_transactions.refund_proceeds_milli,
        refunded_transactions.refund_month,
        refunded_transactions.purchase_month,
        refunded_transactions.purchased_at_ms,
        refunded_transactions.revoked_at_ms,
        exists (
            select 1 from transaction_versions
            where transaction_versions.lineage_id
                = refunded_transactions.lineage_id
                and transaction_versions.transaction_id
                = refunded_transactions.transaction_id
                and transaction_versions.is_from_notification
                and transaction_versions.revoked_at_ms
                = refunded_transactions.revoked_at_ms
        ) as is_from_notifications,
        exists (
            select 1 from notifications
            where notifications.lineage_id = refunded_transactions.lineage_id
                and notifications.transaction_id
                = refunded_transactions.transaction_id
                and notifications.notification_type = 'CONSUMPTION_REQUEST'
                and notifications.format = 'v2'
                and notifications.signed_at_ms
                < refunded_transactions.revoked_at_ms
        ) as has_consumption_request_before
    from refunded_transactions
)

select * from final;
