-- Grain: one row per month that has counted activity, lies in the default
-- range, or was asked for with --month. Documentation/Reports.md "Months written":
-- counted activity is a row in churn, expiration_intents, billing_retry,
-- refunds, consumable_losses or reconciliation; the default range runs from
-- the first observed month (the month of the earliest accepted notification,
-- V2 or V1), or the first month with activity if that is later, to the month
-- of T; --month writes only the months asked for (analysis_requested_months)
-- and never one before the first observed month or after the month of T
-- (the report stage refuses those: is_before_archive, is_after_as_of).
-- Months before the first observed month are rebuilt from later documents
-- and hold only the subscribers who survived into the archive: never
-- written.
-- Decision: without T (no accepted document and no --as-of), or without any
-- accepted notification, the default range is empty.
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

first_observed as (
    select min(month) as month
    from {{ ref('archive_months') }}
    where archive_days > 0
),

as_of_month as (
    select {{ month_of_ms(as_of_ms) }} as month
    from analysis_parameters
    where as_of_ms is not null
),

-- With no counted activity at all (an archive of free trials only), the
-- range starts at the first observed month: there is no later first month
-- with activity to start from.
range_start as (
    select
        case
            when (select min(month) from activity_months) > first_observed.month
                then (select min(month) from activity_months)
            else first_observed.month
        end as month
    from first_observed
    where first_observed.month is not null
),

default_range (month) as (
    select range_start.month
    from range_start
    inner join as_of_month
        on range_start.month <= as_of_month.month
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
        coalesce(
            candidate_months.month < (select month from first_observed),
            true
        ) as is_before_archive,
        coalesce(
            candidate_months.month > (select month from as_of_month),
            true
        ) as is_after_as_of,
        {{ month_end_ms(candidate_months.month) }} as month_end_ms
    from candidate_months
),

-- is_observed: the month lies between the first observed month and the month
-- of T (a run without --month writes these, from the first with counted
-- activity when that is later); what every month's figures read (the flag
-- windows, the cohorts), whichever months this run writes.
with_observed as (
    select
        final.*,
        not final.is_before_archive and not final.is_after_as_of as is_observed
    from final
)

select * from with_observed;
