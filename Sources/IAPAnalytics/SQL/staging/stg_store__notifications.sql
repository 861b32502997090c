-- Grain: one row per notification (lineage_id, notification_id) that counts:
-- the configured environment, never TEST. Apple's retries of a notification
-- carry its payload, hence its lineage: one row per notification. Documentation/Reports.md "Accepted document",
-- "Notification identity".
with

source as (
    select * from {{ source('notifications') }}
    where environment = (select environment from {{ source('analysis_parameters') }})
        and notification_type <> 'TEST'
),

renamed as (
    select
        ---------- ids
        lineage_id,
        notification_id,
        transaction_id,
        original_transaction_id,
        product_id,

        ---------- strings
        format,
        notification_type,
        subtype,
        -- The customer's own stated reason for a refund request.
        consumption_request_reason,

        ---------- booleans
        -- Whether the stored copy's signatures were checked: only a
        -- verified copy is acted on (consumption answers).
        is_verified = 1 as is_verified,

        ---------- timestamps
        signed_date as signed_at_ms,
        document_time as document_at_ms,
        -- "by month of the notification's signedDate"; V1 has none, so its
        -- document time stands in.
        coalesce(signed_date, document_time) as notified_at_ms
    from source
)

select * from renamed;
