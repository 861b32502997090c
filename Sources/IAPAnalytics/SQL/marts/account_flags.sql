-- Grain: one row per (window_key, account_id) flagged in that window: the one
-- implementation of the flag rules of Documentation/Reports.md
-- "`flagged_accounts.csv`: repeat-refund accounts for review", over the
-- windows of int_flag_windows (each month written, and each consumption
-- request) and the figures of int_flag_window_figures. flagged_accounts.csv is
-- the month rows; consumption_requests reads the request rows.
-- Rules (thresholds from analysis_parameters):
-- * repeat_refunds: refunds_90d >= repeat_refunds_min;
-- * consumable_refund_burst: burst_refunds_min consumable refunds in the
--   window whose refund dates lie within burst_window_ms of the first;
-- * high_refund_rate: lifetime_refunds >= high_rate_min_refunds and
--   lifetime_refunds * 100 >= lifetime_purchases * high_rate_min_percent.
-- The `_90d` columns count within the window (--window-days, 90 by default);
-- the names are the CSV contract's.
-- Decision: high_refund_rate is evaluated every month on lifetime figures,
-- so it persists while the figures hold; it is not sticky once new
-- purchases bring the rate under the threshold.
with

analysis_parameters as (
    select * from {{ source('analysis_parameters') }}
),

window_figures as (
    select * from {{ ref('int_flag_window_figures') }}
),

rules_applied as (
    select
        window_figures.*,
        window_figures.refunds_90d
        >= analysis_parameters.repeat_refunds_min as is_repeat_refunds,
        window_figures.lifetime_refunds
        >= analysis_parameters.high_rate_min_refunds
        and window_figures.lifetime_refunds * 100
        >= window_figures.lifetime_purchases
        * analysis_parameters.high_rate_min_percent as is_high_refund_rate
    from window_figures
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
