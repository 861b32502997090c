-- Grain: one row per (window_key, account_id) flagged in that window: the
-- one implementation of Documentation/Reports.md's flag rules, evaluated over two kinds of
-- window.
-- * A month written (window_key = the month): [first ms of the next month -
--   window_days, first ms of the next month), every account.
--   flagged_accounts.csv is this model's month rows.
-- * A V2 CONSUMPTION_REQUEST (window_key = 'request:' || notification ID):
--   [signedDate - window_days, signedDate), only the account of the request's
--   transaction (Documentation/Pipeline.md "Answering consumption requests"); unlinked
--   transactions have no account and no window.
-- Rules (thresholds from analysis_parameters):
-- * repeat_refunds: refunds_90d >= repeat_refunds_min;
-- * consumable_refund_burst: burst_refunds_min consumable refunds in the
--   window whose refund dates lie within burst_window_ms of the first;
-- * high_refund_rate: lifetime_refunds >= high_rate_min_refunds and
--   lifetime_refunds * 100 >= lifetime_purchases * high_rate_min_percent,
--   lifetime meaning before the window's end (purchases: paid transactions
--   by purchaseDate; refunds by refund date).
-- Unlinked transactions (no account) never count and are never flagged.
-- Decision: high_refund_rate is evaluated every month on lifetime figures,
-- so it persists while the figures hold; it is not sticky once new
-- purchases bring the rate under the threshold.
-- transaction_accounts is `not materialized`: it is read twice (declined
-- refunds by transaction, lifetime purchases by account), and SQLite would
-- otherwise copy the whole TEMP table into an unindexed ephemeral table
-- instead of using its indexes by transaction and account. notifications
-- too: read for the requests and for the declines, PostgreSQL would
-- otherwise copy every notification first (1M: 1.3 s).
with

analysis_parameters as (
    select * from {{ source('analysis_parameters') }}
),

report_months as (
    select * from {{ ref('report_months') }}
),

transaction_accounts as not materialized (
    select * from {{ ref('int_transaction_accounts') }}
),

refunds as not materialized (
    select * from {{ ref('int_refunds') }}
),

notifications as not materialized (
    select * from {{ ref('stg_store__notifications') }}
),

consumption_requests as (
    select
        notifications.notification_id,
        notifications.signed_at_ms,
        transaction_accounts.account_id
    from notifications
    inner join transaction_accounts
        on notifications.transaction_id = transaction_accounts.transaction_id
    where notifications.notification_type = 'CONSUMPTION_REQUEST'
        and notifications.format = 'v2'
        and notifications.signed_at_ms is not null
        and transaction_accounts.account_id is not null
),

-- A month window looks at every account; a request window only at the
-- request's account. Each step below meets the two through the join that
-- suits it (a time range for months, the account for requests) and then
-- applies the same rules to both.
month_windows as (
    select
        report_months.month as window_key,
        report_months.month,
        report_months.month_end_ms - analysis_parameters.window_ms
            as window_start_ms,
        report_months.month_end_ms as window_end_ms
    from report_months
    cross join analysis_parameters
    where report_months.is_written
),

request_windows as (
    select
        'request:' || consumption_requests.notification_id as window_key,
        consumption_requests.account_id,
        consumption_requests.signed_at_ms - analysis_parameters.window_ms
            as window_start_ms,
        consumption_requests.signed_at_ms as window_end_ms
    from consumption_requests
    cross join analysis_parameters
),

-- int_refunds holds every refunded transaction with its account: reading
-- it instead of filtering int_transaction_accounts saves a scan of every
-- transaction each time this CTE is read.
account_refunds as (
    select
        account_id,
        transaction_id,
        product_type = {{ product_type('consumable') }} as is_consumable,
        revoked_at_ms
    from refunds
    where account_id is not null
),

refunds_in_windows as (
    select
        month_windows.window_key,
        account_refunds.*
    from month_windows
    inner join account_refunds
        on account_refunds.revoked_at_ms >= month_windows.window_start_ms
        and account_refunds.revoked_at_ms < month_windows.window_end_ms
    union all
    select
        request_windows.window_key,
        account_refunds.*
    from request_windows
    inner join account_refunds
        on account_refunds.account_id = request_windows.account_id
        and account_refunds.revoked_at_ms >= request_windows.window_start_ms
        and account_refunds.revoked_at_ms < request_windows.window_end_ms
),

consumable_bursts as (
    select distinct
        first_refunds.window_key,
        first_refunds.account_id
    from refunds_in_windows as first_refunds
    inner join refunds_in_windows as later_refunds
        on first_refunds.window_key = later_refunds.window_key
        and first_refunds.account_id = later_refunds.account_id
        and later_refunds.revoked_at_ms >= first_refunds.revoked_at_ms
    cross join analysis_parameters
    where first_refunds.is_consumable
        and later_refunds.is_consumable
        and later_refunds.revoked_at_ms
        <= first_refunds.revoked_at_ms + analysis_parameters.burst_window_ms
    group by
        first_refunds.window_key,
        first_refunds.account_id,
        first_refunds.transaction_id,
        analysis_parameters.burst_refunds_min
    having count(*) >= analysis_parameters.burst_refunds_min
),

window_refund_summaries as (
    select distinct
        window_key,
        account_id,
        count(*) over account_window as refunds_90d,
        count(*) filter (where is_consumable) over account_window
            as consumable_refunds_90d,
        min(revoked_at_ms) over account_window as first_refund_ms,
        max(revoked_at_ms) over account_window as last_refund_ms,
        {{ string_agg(transaction_id, ';') }} over account_window as evidence
    from refunds_in_windows
    window account_window as (
        partition by window_key, account_id
        order by revoked_at_ms, transaction_id
        rows between unbounded preceding and unbounded following
    )
),

declines as (
    select
        transaction_accounts.account_id,
        notifications.notified_at_ms
    from notifications
    inner join transaction_accounts
        on notifications.transaction_id = transaction_accounts.transaction_id
    where notifications.notification_type = 'REFUND_DECLINED'
        and transaction_accounts.account_id is not null
),

declined_in_windows as (
    select
        month_windows.window_key,
        declines.account_id,
        count(*) as declined_90d
    from declines
    inner join month_windows
        on declines.notified_at_ms >= month_windows.window_start_ms
        and declines.notified_at_ms < month_windows.window_end_ms
    group by 1, 2
    union all
    select
        request_windows.window_key,
        declines.account_id,
        count(*) as declined_90d
    from declines
    inner join request_windows
        on declines.account_id = request_windows.account_id
        and declines.notified_at_ms >= request_windows.window_start_ms
        and declines.notified_at_ms < request_windows.window_end_ms
    group by 1, 2
),

refunding_accounts as (
    select
        account_id,
        min(revoked_at_ms) as first_refund_ms
    from account_refunds
    group by account_id
),

window_accounts as (
    select
        month_windows.window_key,
        month_windows.month,
        month_windows.window_end_ms,
        refunding_accounts.account_id
    from month_windows
    inner join refunding_accounts
        on refunding_accounts.first_refund_ms < month_windows.window_end_ms
    union all
    select
        request_windows.window_key,
        null,
        request_windows.window_end_ms,
        refunding_accounts.account_id
    from request_windows
    inner join refunding_accounts
        on refunding_accounts.account_id = request_windows.account_id
        and refunding_accounts.first_refund_ms < request_windows.window_end_ms
),

-- One row per (window, account) with a refund before the window's end, with
-- its lifetime counts counted per row: refunds as a range of
-- int_refunds_by_account (account_id, revoked_at_ms) (`refunds` is not
-- materialized, so the lookup reaches that index), paid purchases as a range of
-- int_transactions_priced_by_account (account_id, purchased_at_ms, is_paid),
-- which covers the count. Joining every refund and purchase to every later
-- window and grouping sorted one row per (window, transaction) instead: the
-- slowest step of the analysis at 1M notifications. Materialised so each
-- count runs once per row, not once per later use of its column.
lifetime_counts as materialized (
    select
        window_accounts.window_key,
        window_accounts.month,
        window_accounts.account_id,
        (
            select count(*)
            from refunds
            where refunds.account_id = window_accounts.account_id
                and refunds.revoked_at_ms < window_accounts.window_end_ms
        ) as lifetime_refunds,
        (
            select count(*)
            from transaction_accounts
            where transaction_accounts.account_id
                = window_accounts.account_id
                and transaction_accounts.is_paid
                and transaction_accounts.purchased_at_ms
                < window_accounts.window_end_ms
        ) as lifetime_purchases
    from window_accounts
),

account_windows as (
    select
        lifetime_counts.window_key,
        lifetime_counts.month,
        lifetime_counts.account_id,
        coalesce(window_refund_summaries.refunds_90d, 0) as refunds_90d,
        coalesce(window_refund_summaries.consumable_refunds_90d, 0)
            as consumable_refunds_90d,
        coalesce(declined_in_windows.declined_90d, 0) as declined_90d,
        lifetime_counts.lifetime_purchases,
        lifetime_counts.lifetime_refunds,
        window_refund_summaries.first_refund_ms,
        window_refund_summaries.last_refund_ms,
        window_refund_summaries.evidence,
        consumable_bursts.account_id is not null as has_consumable_burst
    from lifetime_counts
    left join window_refund_summaries
        on lifetime_counts.window_key = window_refund_summaries.window_key
        and lifetime_counts.account_id = window_refund_summaries.account_id
    left join declined_in_windows
        on lifetime_counts.window_key = declined_in_windows.window_key
        and lifetime_counts.account_id = declined_in_windows.account_id
    left join consumable_bursts
        on lifetime_counts.window_key = consumable_bursts.window_key
        and lifetime_counts.account_id = consumable_bursts.account_id
),

rules_applied as (
    select
        account_windows.*,
        account_windows.refunds_90d
        >= analysis_parameters.repeat_refunds_min as is_repeat_refunds,
        account_windows.lifetime_refunds
        >= analysis_parameters.high_rate_min_refunds
        and account_windows.lifetime_refunds * 100
        >= account_windows.lifetime_purchases
        * analysis_parameters.high_rate_min_percent as is_high_refund_rate
    from account_windows
    cross join analysis_parameters
),

final as (
    select
        window_key,
        month,
        account_id,
        rtrim(
            case
                when has_consumable_burst then 'consumable_refund_burst;'
                else ''
            end
            || case
                when is_high_refund_rate then 'high_refund_rate;' else ''
            end
            || case
                when is_repeat_refunds then 'repeat_refunds;' else ''
            end,
            ';'
        ) as rules,
        refunds_90d,
        consumable_refunds_90d,
        declined_90d,
        lifetime_purchases,
        lifetime_refunds,
        {{ utc_timestamp_of_ms(first_refund_ms) }} as first_refund,
        {{ utc_timestamp_of_ms(last_refund_ms) }} as last_refund,
        evidence,
        first_refund_ms,
        last_refund_ms
    from rules_applied
    where has_consumable_burst or is_high_refund_rate or is_repeat_refunds
)

select * from final;
