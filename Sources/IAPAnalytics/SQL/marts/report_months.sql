-- Grain: one row per month that has counted activity, lies in the default
-- range, or was asked for with --month. Documentation/Reports.md "Months written":
-- counted activity is a row in churn, expiration_intents, billing_retry,
-- refunds, consumable_losses or reconciliation; the default range runs from
-- the first such month to the month of T; --month writes only the months
-- asked for (analysis_requested_months).
-- Decision: without T (no accepted document and no --as-of) the default
-- range is empty.
with recursive

analysis_parameters as (
    select * from {{ source('analysis_parameters') }}
),

requested_months as (
    select * from {{ source('analysis_requested_months') }}
),

activity_months as (
    select month from {{ ref('churn') }}
    union
    select month from {{ ref('expiration_intents') }}
    union
    select month from {{ ref('billing_retry') }}
    union
    select month from {{ ref('refunds') }}
    union
    select month from {{ ref('consumable_losses') }}
    union
    select month from {{ ref('reconciliation') }}
),

as_of_month as (
    select {{ month_of_ms(as_of_ms) }} as month
    from analysis_parameters
    where as_of_ms is not null
),

default_range (month) as (
    select min(activity_months.month)
    from activity_months
    inner join as_of_month
        on activity_months.month <= as_of_month.month
    union all
    select {{ month_after(default_range.month) }}
    from default_range
    where default_range.month
        < (select as_of_month.month from as_of_month)
),

candidate_months as (
    select month from default_range where month is not null
    union
    select month from requested_months
    union
    select month from activity_months
),

final as (
    select
        candidate_months.month,
        candidate_months.month in (select month from activity_months)
            as has_activity,
        case
            when exists (select 1 from requested_months)
                then candidate_months.month in (
                    select month from requested_months
                )
            else candidate_months.month in (select month from default_range)
        end as is_written,
        {{ month_end_ms(candidate_months.month) }} as month_end_ms
    from candidate_months
)

select * from final;
