-- Grain: one row per window (window_key) in which the flag rules of
-- Documentation/Reports.md "`flagged_accounts.csv`: repeat-refund accounts for
-- review" are evaluated. Two kinds of window, told apart by window_kind:
-- * 'month': a month of the observed range, from the first observed month to
--   the month of T, whether this report writes it or not (window_key = the
--   month, e.g. '2025-10'), so that a month's queue (first flagged, active)
--   is the same whichever months --month asks for:
--   [first ms of the next month - window_days, first ms of the next month),
--   over every account (account_id null). flagged_accounts.csv is the
--   month windows' rows of account_flags.
-- * 'request': a V2 CONSUMPTION_REQUEST (window_key = 'request:' ||
--   notification ID): [signedDate - window_days, signedDate), over the
--   account of the request's transaction only (Documentation/Pipeline.md
--   "Answering consumption requests"). A request whose transaction has no
--   account (unlinked) has no window.
-- window_days is --window-days (90 by default), as window_ms.
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

notifications as not materialized (
    select * from {{ ref('stg_store__notifications') }}
),

month_windows as (
    select
        report_months.month as window_key,
        'month' as window_kind,
        report_months.month,
        cast(null as text) as account_id,
        report_months.month_end_ms - analysis_parameters.window_ms
            as window_start_ms,
        report_months.month_end_ms as window_end_ms
    from report_months
    cross join analysis_parameters
    where report_months.is_observed
),

request_windows as (
    select
        'request:' || notifications.notification_id as window_key,
        'request' as window_kind,
        cast(null as text) as month,
        transaction_accounts.account_id,
        notifications.signed_at_ms - analysis_parameters.window_ms
            as window_start_ms,
        notifications.signed_at_ms as window_end_ms
    from notifications
    inner join transaction_accounts
        on notifications.transaction_id = transaction_accounts.transaction_id
    cross join analysis_parameters
    where notifications.notification_type = 'CONSUMPTION_REQUEST'
        and notifications.format = 'v2'
        and notifications.signed_at_ms is not null
        and transaction_accounts.account_id is not null
)

select * from month_windows
union all
select * from request_windows;
