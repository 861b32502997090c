-- Grain: one row per app_account_token of accounts.csv (lower-cased by the
-- loader; the first line of a token wins). Documentation/Reports.md "Account".
with

source as (
    select * from {{ source('ref_accounts') }}
),

renamed as (
    select
        ---------- ids
        lower(app_account_token) as app_account_token,
        account_id
    from source
)

select * from renamed;
