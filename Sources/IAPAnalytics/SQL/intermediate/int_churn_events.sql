-- Grain: one row per churn event: a paid auto-renewable period X
-- (originalTransactionId, transactionId of X) after which the subscriber
-- stopped paying. Documentation/Reports.md churn.csv rules 1 -> 2 -> 3, churn_type, and
-- the expiration intent of expiration_intents.csv.
-- R (rule 3) is the newest renewal state of the subscription whose document
-- time is strictly before E. States with the same document time (V1 bodies
-- without receivedAt take the time of their latest date, so a
-- DID_FAIL_TO_RENEW body ties with the renewal it came after): the one that
-- says more of an end wins, in the rule's order (billing retry, an
-- expiration intent, auto-renew off), then the greatest document ID.
-- Decisions where the contract is silent:
-- * An intent outside 1-4 maps to unknown; expiration_intents.csv takes the
--   renewal info's intent only when it is 1-5, else the reason's number.
-- * A period without an expiry date can only churn by rule 1 or 2 and
--   needs a month: without one (rule 2, no expiresDate) it is dropped.
-- Built as a TEMP table.
-- Import CTEs read more than once are `not materialized`: SQLite otherwise
-- copies the whole source into an unindexed ephemeral table and builds an
-- automatic index on the copy every run, instead of using the source's
-- own indexes.
with

subscription_periods as (
    select * from {{ ref('int_subscription_periods') }}
),

expirations_notified as (
    select * from {{ ref('int_expirations_notified') }}
),

renewal_infos as not materialized (
    select * from {{ ref('stg_store__renewal_infos') }}
),

paid_periods as (
    select * from subscription_periods
    where is_paid
),

periods_joined_to_expirations as (
    select
        paid_periods.*,
        expirations_notified.notification_id as expired_notification_id,
        expirations_notified.subtype as expired_subtype,
        expirations_notified.expiration_intent as expired_intent,
        paid_periods.is_refunded
        and not coalesce(
            paid_periods.next_purchased_at_ms <= paid_periods.revoked_at_ms,
            false
        ) as is_ended_by_refund
    from paid_periods
    left join expirations_notified
        on paid_periods.lineage_id = expirations_notified.lineage_id
        and paid_periods.transaction_id = expirations_notified.transaction_id
),

-- `materialized`: the newest renewal state is looked up only for the periods
-- that ended (a few of the paid periods), and once each. Inlined,
-- PostgreSQL looked it up for every paid period, twice (100k: 0.73 s
-- against 0.1 s).
periods_with_renewal_state as materialized (
    select
        periods_joined_to_expirations.*,
        (
            select renewal_infos.document_id
            from renewal_infos
            where renewal_infos.original_transaction_id
                = periods_joined_to_expirations.original_transaction_id
                and renewal_infos.document_at_ms
                < periods_joined_to_expirations.ended_at_ms
            order by
                renewal_infos.document_at_ms desc,
                renewal_infos.is_in_billing_retry desc,
                renewal_infos.expiration_intent is not null desc,
                coalesce(renewal_infos.is_auto_renew_off, false) desc,
                renewal_infos.document_id desc
            limit 1
        ) as renewal_document_id
    from periods_joined_to_expirations
    where is_ended_by_refund
        or expired_notification_id is not null
        or expires_at_ms < ended_at_ms
),

periods_joined_to_renewal_state as (
    select
        periods_with_renewal_state.*,
        renewal_infos.expiration_intent as renewal_intent,
        coalesce(renewal_infos.is_in_billing_retry, false)
            as is_in_billing_retry,
        coalesce(renewal_infos.is_auto_renew_off, false) as is_auto_renew_off,
        periods_with_renewal_state.ended_at_ms
        >= periods_with_renewal_state.expires_at_ms + {{ rule('billing_retry_window_ms') }}
            as is_past_recovery_window
    from periods_with_renewal_state
    left join renewal_infos
        on periods_with_renewal_state.renewal_document_id
        = renewal_infos.document_id
        and periods_with_renewal_state.original_transaction_id
        = renewal_infos.original_transaction_id
),

reasoned as (
    select
        *,
        case
            when is_ended_by_refund then {{ churn_reason('refunded') }}
            when expired_notification_id is not null then
                coalesce(
                    {{ churn_reason_of_expired_subtype(expired_subtype) }},
                    {{ churn_reason_of_intent(expired_intent) }}
                )
            when is_in_billing_retry then
                case
                    when is_past_recovery_window
                        then {{ churn_reason('billing_error') }}
                end
            when renewal_intent is not null
                then {{ churn_reason_of_intent(renewal_intent) }}
            when is_auto_renew_off then {{ churn_reason('customer_canceled') }}
            when is_past_recovery_window then {{ churn_reason('unknown') }}
        end as reason,
        case
            when is_ended_by_refund then null
            when expired_notification_id is not null then expired_intent
            else renewal_intent
        end as observed_intent
    from periods_joined_to_renewal_state
),

final as (
    select
        lineage_id,
        transaction_id,
        original_transaction_id,
        product_id,
        reason,
        {{ churn_type_of_reason(reason) }} as churn_type,
        case
            when reason = {{ churn_reason('refunded') }} then null
            when observed_intent between 1 and 5 then observed_intent
            else {{ expiration_intent_of_churn_reason(reason) }}
        end as expiration_intent,
        case
            when reason = {{ churn_reason('refunded') }}
                then {{ month_of_ms(revoked_at_ms) }}
            else {{ month_of_ms(expires_at_ms) }}
        end as churn_month
    from reasoned
    where reason is not null
)

select * from final
where churn_month is not null;
