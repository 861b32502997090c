-- Grain: one row per (lineage_id, transaction_id, document_id): each snapshot
-- of a
-- transaction, of the configured environment. Documentation/Reports.md "Refund"
-- (which sources reported a refund).
with

source as (
    select * from {{ source('transaction_versions') }}
    where environment = (select environment from {{ source('analysis_parameters') }})
),

renamed as (
    select
        ---------- ids
        lineage_id,
        transaction_id,
        document_id,
        original_transaction_id,

        ---------- strings
        source as version_source,
        format,

        ---------- booleans
        source in ('v2_notification', 'v1_notification')
            as is_from_notification,

        ---------- timestamps
        document_time as document_at_ms,
        expires_date as expires_at_ms,
        revocation_date as revoked_at_ms
    from source
)

select * from renamed;
