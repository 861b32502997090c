-- Grain: one row per transaction (lineage_id, transaction_id) that a V2 EXPIRED
-- notification names, with its subtype and its renewal info's
-- expirationIntent. Documentation/Reports.md churn rule 2.
-- Decision: if several distinct EXPIRED notifications name one transaction,
-- the newest (document time, then notification ID) decides, as the newest
-- snapshot does everywhere else.
with

notifications as (
    select * from {{ ref('stg_store__notifications') }}
),

renewal_infos as (
    select * from {{ ref('stg_store__renewal_infos') }}
),

expired_notifications as (
    select
        notifications.lineage_id,
        notifications.notification_id,
        notifications.transaction_id,
        notifications.subtype,
        renewal_infos.expiration_intent,
        row_number() over (
            partition by notifications.lineage_id, notifications.transaction_id
            order by
                notifications.document_at_ms desc,
                notifications.notification_id desc
        ) as recency_rank
    from notifications
    left join renewal_infos
        on notifications.lineage_id = renewal_infos.original_transaction_id
        and notifications.notification_id = renewal_infos.document_id
    where notifications.notification_type = 'EXPIRED'
        and notifications.format = 'v2'
        and notifications.transaction_id is not null
),

final as (
    select
        lineage_id,
        transaction_id,
        notification_id,
        subtype,
        expiration_intent
    from expired_notifications
    where recency_rank = 1
)

select * from final;
