-- Grain: one row per (cohort_month, months_since): retention by cohort, for
-- the top of the reports folder. Documentation/Reports.md cohorts.csv:
-- * a subscription's cohort is the month of its first paid period's
--   purchaseDate, for the subscriptions subscriptions.csv counts as new_paid
--   in a month written (so no cohort is older than the first observed month);
--   the months a default run writes, also when --month asks for fewer: the
--   file sits at the top of the reports folder beside months not written this
--   time, and a run of one month must not shrink it to that month's cohort;
-- * months_since k runs from 1 while the first millisecond of month
--   cohort_month + k is at or before T, at most 24;
-- * active: the cohort's subscriptions active (as in subscriptions.csv, any
--   product) at that instant; retention_permille = round half up
--   (1000 x active / cohort_size).
with recursive

analysis_parameters as (
    select * from {{ source('analysis_parameters') }}
),

active as not materialized (
    select * from {{ ref('int_active_subscriptions') }}
),

boundaries as (
    select * from {{ ref('int_month_boundaries') }}
    where edge = 'start'
),

observed_months as (
    select month from {{ ref('report_months') }}
    where is_observed
),

members as (
    select original_transaction_id, month as cohort_month
    from {{ ref('int_subscription_starts') }}
),

cohorts as (
    select members.cohort_month, count(*) as cohort_size
    from members
    inner join observed_months
        on observed_months.month = members.cohort_month
    group by members.cohort_month
),

offsets (cohort_month, months_since, month) as (
    select cohort_month, 1, {{ month_after(cohort_month) }}
    from cohorts
    union all
    select cohort_month, months_since + 1, {{ month_after(month) }}
    from offsets
    where months_since < 24
),

cells as (
    select offsets.cohort_month, offsets.months_since, boundaries.at_ms
    from offsets
    inner join boundaries
        on boundaries.month = offsets.month
    cross join analysis_parameters
    where boundaries.at_ms <= analysis_parameters.as_of_ms
),

active_members as (
    select
        cells.cohort_month,
        cells.months_since,
        count(distinct active.original_transaction_id) as active
    from cells
    inner join members
        on members.cohort_month = cells.cohort_month
    inner join active
        on active.at_ms = cells.at_ms
        and active.original_transaction_id = members.original_transaction_id
    group by cells.cohort_month, cells.months_since
),

final as (
    select
        cells.cohort_month,
        cells.months_since,
        cohorts.cohort_size,
        coalesce(active_members.active, 0) as active,
        (2000 * coalesce(active_members.active, 0) + cohorts.cohort_size) / (2 * cohorts.cohort_size)
            as retention_permille
    from cells
    inner join cohorts
        on cohorts.cohort_month = cells.cohort_month
    left join active_members
        on active_members.cohort_month = cells.cohort_month
        and active_members.months_since = cells.months_since
)

select * from final;
