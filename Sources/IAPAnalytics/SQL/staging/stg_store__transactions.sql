-- Grain: one row per transaction (lineage_id, transaction_id), merged by
-- ingest, of the
-- configured environment. Documentation/Reports.md "Transaction", "Amount",
-- "Product type". Milliseconds stay integers (`*_at_ms`) because every rule
-- is arithmetic on them.
-- Decision: a transaction belongs to the environment of its newest version
-- (ingest's merge); Apple never reuses an ID across environments.
with

source as (
    select * from {{ source('transactions') }}
    where environment = (select environment from {{ source('analysis_parameters') }})
),

renamed as (
    select
        ---------- ids
        lineage_id,
        transaction_id,
        original_transaction_id,
        product_id,
        lower(app_account_token) as app_account_token,
        app_transaction_id,

        ---------- strings
        format,
        type as apple_product_type,
        {{ product_type_name(type) }} as product_type,
        in_app_ownership_type,
        offer_discount_type,
        currency,
        -- Apple's three-letter storefront (V2); null for V1, which has none.
        storefront,
        -- Apple's reason for a refund (0 other, 1 an issue with the app).
        revocation_reason,

        ---------- numerics
        price as price_milli,
        coalesce(quantity, 1) as quantity,
        revocation_percentage,

        ---------- booleans
        coalesce(is_trial_period, 0) = 1
        or coalesce(offer_discount_type, '') = 'FREE_TRIAL' as is_free_trial,
        -- Documentation/Reports.md subscriptions.csv "Free trials": older V2
        -- payloads say so with offerType 1 only.
        coalesce(is_trial_period, 0) = 1
        or coalesce(offer_discount_type, '') = 'FREE_TRIAL'
        or coalesce(offer_type, 0) = 1 as is_trial_offer,
        coalesce(in_app_ownership_type, '') = 'FAMILY_SHARED'
            as is_family_shared,
        revocation_date is not null
        and coalesce(in_app_ownership_type, 'PURCHASED') = 'PURCHASED'
            as is_refunded,

        ---------- timestamps
        purchase_date as purchased_at_ms,
        original_purchase_date as original_purchased_at_ms,
        expires_date as expires_at_ms,
        revocation_date as revoked_at_ms,
        signed_date as signed_at_ms
    from source
)

select * from renamed;
