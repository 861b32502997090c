-- Grain: one row per billing episode: the first DID_FAIL_TO_RENEW (V2 or V1)
-- of a paid auto-renewable period X (transaction_id). Documentation/Reports.md
-- billing_retry.csv.
-- V2: X is the notification's transaction; V1: for each pending_renewal_info
-- entry of the body in billing retry, the subscription's transaction with the
-- greatest expires_date_ms carried in that body (ties: greatest ID).
-- The grace period end is the one known at the episode's start: the
-- renewal info carried by that same notification.
-- Decisions: the first notification is the one with the smallest document
-- time (ties: notification ID); an episode whose X has no expiry date has no
-- month and is dropped.
-- Built as a TEMP table.
-- Import CTEs read more than once are `not materialized`: SQLite otherwise
-- copies the whole source into an unindexed ephemeral table and builds an
-- automatic index on the copy every run, instead of using the source's
-- own indexes.
with

notifications as not materialized (
    select * from {{ ref('stg_store__notifications') }}
),

renewal_infos as not materialized (
    select * from {{ ref('stg_store__renewal_infos') }}
),

transaction_versions as not materialized (
    select * from {{ ref('stg_store__transaction_versions') }}
),

subscription_periods as (
    select * from {{ ref('int_subscription_periods') }}
),

churn_events as (
    select * from {{ ref('int_churn_events') }}
),

failures_v2 as (
    select
        notifications.lineage_id,
        notifications.notification_id,
        notifications.document_at_ms,
        notifications.transaction_id,
        renewal_infos.grace_period_expires_at_ms
    from notifications
    left join renewal_infos
        on notifications.lineage_id = renewal_infos.original_transaction_id
        and notifications.notification_id = renewal_infos.document_id
    where notifications.notification_type = 'DID_FAIL_TO_RENEW'
        and notifications.format = 'v2'
        and notifications.transaction_id is not null
),

-- A V1 body lists every subscription of the account, so one V1 failure
-- spans lineages: its renewal infos and transaction versions are joined
-- inside each lineage (renewal_infos.original_transaction_id is the
-- lineage), and the failure notifications (a handful) are the set they are
-- filtered by, which Citus computes once and sends to every shard.
failure_notifications_v1 as (
    select notification_id
    from notifications
    where notification_type = 'DID_FAIL_TO_RENEW'
        and format = 'v1'
),

-- The V1 failure bodies' renewal infos in billing retry, taken once before
-- the transaction versions are joined (materialized). Joined in one step,
-- PostgreSQL misjudged their number (the flag is computed) and scanned the
-- notifications again for each of about 92,000 candidate versions: this
-- model ran for over ten minutes on an archive of 235,000 V1 notifications
-- (4 s now; SQLite takes the same time either way).
v1_failure_renewals as materialized (
    select
        renewal_infos.document_id,
        renewal_infos.original_transaction_id,
        renewal_infos.document_at_ms,
        renewal_infos.grace_period_expires_at_ms
    from failure_notifications_v1
    {{ fixed_order_join }} renewal_infos
        on failure_notifications_v1.notification_id = renewal_infos.document_id
    where renewal_infos.is_in_billing_retry
),

failures_v1_candidates as (
    select
        transaction_versions.lineage_id,
        v1_failure_renewals.document_id as notification_id,
        v1_failure_renewals.document_at_ms,
        transaction_versions.transaction_id,
        v1_failure_renewals.grace_period_expires_at_ms,
        row_number() over (
            partition by
                v1_failure_renewals.document_id,
                v1_failure_renewals.original_transaction_id
            order by
                transaction_versions.expires_at_ms desc,
                transaction_versions.transaction_id desc
        ) as expiry_rank
    -- `cross join` is SQLite's way to fix the join order (same rows as an
    -- inner join): start from the few V1 failure renewals. Left to itself
    -- the planner scans every transaction version of the store.
    from v1_failure_renewals
    {{ fixed_order_join }} transaction_versions
        on v1_failure_renewals.original_transaction_id = transaction_versions.lineage_id
        and v1_failure_renewals.original_transaction_id
        = transaction_versions.original_transaction_id
        and v1_failure_renewals.document_id = transaction_versions.document_id
    where transaction_versions.expires_at_ms is not null
),

failures as (
    select * from failures_v2
    union all
    select
        lineage_id,
        notification_id,
        document_at_ms,
        transaction_id,
        grace_period_expires_at_ms
    from failures_v1_candidates
    where expiry_rank = 1
),

first_failures as (
    select
        *,
        row_number() over (
            partition by lineage_id, transaction_id
            order by document_at_ms, notification_id
        ) as failure_rank
    from failures
),

episodes as (
    select
        subscription_periods.transaction_id,
        subscription_periods.original_transaction_id,
        subscription_periods.product_id,
        subscription_periods.expires_at_ms,
        subscription_periods.next_purchased_at_ms,
        first_failures.notification_id as started_by_notification_id,
        first_failures.document_at_ms as started_at_ms,
        first_failures.grace_period_expires_at_ms,
        coalesce(
            subscription_periods.next_purchased_at_ms
            <= subscription_periods.expires_at_ms + {{ rule('billing_retry_window_ms') }},
            false
        ) as is_recovered,
        churn_events.transaction_id is not null as is_churned
    from first_failures
    inner join subscription_periods
        on first_failures.lineage_id = subscription_periods.lineage_id
        and first_failures.transaction_id = subscription_periods.transaction_id
    left join churn_events
        on first_failures.lineage_id = churn_events.lineage_id
        and first_failures.transaction_id = churn_events.transaction_id
    where first_failures.failure_rank = 1
        and subscription_periods.is_paid
        and subscription_periods.expires_at_ms is not null
),

final as (
    select
        transaction_id,
        original_transaction_id,
        product_id,
        {{ month_of_ms(expires_at_ms) }}
            as episode_month,
        started_by_notification_id,
        started_at_ms,
        grace_period_expires_at_ms,
        next_purchased_at_ms,
        is_recovered,
        is_recovered and coalesce(
            next_purchased_at_ms < grace_period_expires_at_ms, false
        ) as is_recovered_in_grace,
        not is_recovered and is_churned as is_expired,
        not is_recovered and not is_churned as is_pending
    from episodes
)

select * from final;
