-- Grain: one row per app_account_token of accounts.csv (lower-cased by the
-- loader; the first line of a token wins). REPORTS.md "Account".
drop view if exists stg_reference__accounts;

create view stg_reference__accounts as

with

source as (
    select * from ref_accounts
),

renamed as (
    select
        ---------- ids
        lower(app_account_token) as app_account_token,
        account_id
    from source
)

select * from renamed;
