-- Grain: one row per renewal-state snapshot (document_id,
-- original_transaction_id) of the configured environment: V2
-- signedRenewalInfo or one V1 pending_renewal_info entry. Documentation/Reports.md churn
-- rules 2-3, billing_retry (grace period).
with

source as (
    select * from {{ source('renewal_infos') }}
    where environment = (select environment from {{ source('analysis_parameters') }})
),

renamed as (
    select
        ---------- ids
        document_id,
        original_transaction_id,

        ---------- strings
        format,

        ---------- numerics
        expiration_intent,

        ---------- booleans
        auto_renew_status = 0 as is_auto_renew_off,
        coalesce(is_in_billing_retry_period, 0) = 1 as is_in_billing_retry,

        ---------- timestamps
        document_time as document_at_ms,
        grace_period_expires_date as grace_period_expires_at_ms
    from source
)

select * from renamed;
