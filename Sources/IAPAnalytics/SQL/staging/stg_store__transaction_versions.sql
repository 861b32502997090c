-- Grain: one row per (transaction_id, document_id): each snapshot of a
-- transaction, of the configured environment. REPORTS.md "Refund"
-- (which sources reported a refund).
drop view if exists stg_store__transaction_versions;

create view stg_store__transaction_versions as

with

source as (
    select * from transaction_versions
    where environment = (select environment from analysis_parameters)
),

renamed as (
    select
        ---------- ids
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
