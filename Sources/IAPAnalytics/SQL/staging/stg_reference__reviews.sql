-- Grain: one row per line of the reviews file (line): a trust-and-safety
-- decision about an account. Documentation/Reports.md "The review queue".
with

source as (
    select * from {{ source('ref_reviews') }}
),

renamed as (
    select
        ---------- ids
        line,
        account_id,

        ---------- strings
        decision,
        reviewer,
        note,

        ---------- timestamps
        reviewed_at_ms
    from source
)

select * from renamed;
