-- Grain: one row per V2 CONSUMPTION_REQUEST notification copy (notification_id, transaction_id)
-- of the configured environment, with what iaplens answers from
-- (Documentation/Pipeline.md "Answering consumption requests"):
-- * account_id, product_type: the request's transaction (Documentation/Reports.md
--   "Account", "Product type"); null when the store lacks the transaction.
-- * rules: the flag rules the account met in the request's own window
--   (account_flags, window 'request:' || notification_id); '' when none.
-- * decision: what Apple decided after the request: 'refunded' (a REFUND
--   for the transaction signed after it, or the transaction's own refund
--   date after it: a refund known only from refund history or a lookup) or
--   'declined' (REFUND_DECLINED), whichever came first; null while open. A
--   decided request is no longer pending. Filled for every request, missed
--   and skipped ones too, so the cost of a missed window shows.
-- * decided_at_ms: when that decision was signed.
-- * rules: also 'confirmed_by_review' when no rule holds but the reviews
--   file's decision in force at the request is `confirmed` (the account
--   stays one to decline).
-- * consumption_request_reason: the customer's own stated reason (Apple's
--   value); revocation_reason: Apple's reason when the transaction was
--   refunded after the request.
-- * is_verified: whether the stored copy of the request was verified; an
--   unverified copy (--no-verify) is reported but never answered, also when
--   it reuses the ID of a verified request.
with

notifications as not materialized (
    select * from {{ ref('stg_store__notifications') }}
),

transaction_accounts as (
    select * from {{ ref('int_transaction_accounts') }}
),

-- The priced transactions (a table with an index by transaction), not the
-- staging view: PostgreSQL never merges a view built with `with` into the
-- query, so the left join below could not reach an index through it, and
-- with a one-row estimate it scanned every refunded transaction once per
-- request (13 s for 207 requests on an archive of 235,000 V1 notifications).
transactions as not materialized (
    select * from {{ ref('int_transactions_priced') }}
),

account_flags as (
    select * from {{ ref('account_flags') }}
),

reviews as (
    select * from {{ ref('stg_reference__reviews') }}
),

requests as (
    select
        lineage_id,
        notification_id,
        transaction_id,
        signed_at_ms,
        is_verified,
        consumption_request_reason
    from notifications
    where notification_type = 'CONSUMPTION_REQUEST'
        and format = 'v2'
        and transaction_id is not null
        and signed_at_ms is not null
),

-- The first refund and the first decline of the transaction after the
-- request: one join of the few requests to their transactions' later
-- decisions (in the same lineage), not a lookup per request.
decided as (
    select
        requests.lineage_id,
        requests.notification_id,
        requests.transaction_id,
        requests.signed_at_ms,
        requests.is_verified,
        requests.consumption_request_reason,
        min(
            case when later.notification_type = 'REFUND' then later.signed_at_ms end
        ) as refunded_at_ms,
        min(
            case
                when later.notification_type = 'REFUND_DECLINED'
                    then later.signed_at_ms
            end
        ) as declined_at_ms
    from requests
    left join notifications as later
        on later.lineage_id = requests.lineage_id
        and later.transaction_id = requests.transaction_id
        and later.notification_type in ('REFUND', 'REFUND_DECLINED')
        and later.signed_at_ms > requests.signed_at_ms
    group by
        requests.lineage_id,
        requests.notification_id,
        requests.transaction_id,
        requests.signed_at_ms,
        requests.is_verified,
        requests.consumption_request_reason
),

-- The first refund after the request: a REFUND notification, or the
-- transaction's own refund date (from refund history or a lookup).
refund_dates as (
    select
        decided.notification_id,
        decided.transaction_id,
        decided.signed_at_ms,
        decided.is_verified,
        decided.consumption_request_reason,
        transactions.revocation_reason,
        decided.declined_at_ms,
        case
            when decided.refunded_at_ms is null then transactions.revoked_at_ms
            when transactions.revoked_at_ms is null then decided.refunded_at_ms
            when transactions.revoked_at_ms < decided.refunded_at_ms then transactions.revoked_at_ms
            else decided.refunded_at_ms
        end as refunded_at_ms
    from decided
    left join transactions
        on transactions.lineage_id = decided.lineage_id
        and transactions.transaction_id = decided.transaction_id
        and transactions.is_refunded
        and transactions.revoked_at_ms > decided.signed_at_ms
),

final as (
    select
        decided.notification_id,
        decided.transaction_id,
        decided.signed_at_ms,
        decided.is_verified,
        decided.consumption_request_reason,
        decided.revocation_reason,
        {{ month_of_ms(decided.signed_at_ms) }} as month,
        transaction_accounts.account_id,
        transaction_accounts.product_type,
        case
            when coalesce(account_flags.rules, '') = ''
                and (
                    select review.decision from reviews as review
                    where review.account_id = transaction_accounts.account_id
                        and review.reviewed_at_ms <= decided.signed_at_ms
                    order by review.reviewed_at_ms desc, review.line desc
                    limit 1
                ) = 'confirmed'
                then 'confirmed_by_review'
            else coalesce(account_flags.rules, '')
        end as rules,
        case
            when decided.refunded_at_ms is not null
                and (
                    decided.declined_at_ms is null
                    or decided.refunded_at_ms <= decided.declined_at_ms
                ) then 'refunded'
            when decided.declined_at_ms is not null then 'declined'
        end as decision,
        case
            when decided.refunded_at_ms is null then decided.declined_at_ms
            when decided.declined_at_ms is null then decided.refunded_at_ms
            when decided.refunded_at_ms <= decided.declined_at_ms then decided.refunded_at_ms
            else decided.declined_at_ms
        end as decided_at_ms
    from refund_dates as decided
    left join transaction_accounts
        on decided.transaction_id = transaction_accounts.transaction_id
    left join account_flags
        on account_flags.window_key = 'request:' || decided.notification_id
        and account_flags.account_id = transaction_accounts.account_id

)

select * from final;
