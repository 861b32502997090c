-- Grain: one row per app_account_token of accounts.csv, lower-cased as
-- stg_reference__accounts gives it. Documentation/Reports.md "Account".
-- Built as a TEMP table indexed by token and account (int_account_tokens_by_token):
-- joining the view directly compares every transaction with every mapping row
-- (lower() defeats the primary key), which took 74 s for 80k transactions x
-- 11k accounts on SQLite and grows quadratically.

with

accounts as (
    select * from {{ ref('stg_reference__accounts') }}
),

final as (
    select
        app_account_token,
        account_id
    from accounts
)

select * from final
