-- Grain: one row per month (month) that holds the document time of an
-- accepted notification or a day a loaded Apple financial report covers:
-- what the reports of that month rest on. Documentation/Reports.md
-- "months.csv":
-- * first_archive_day / last_archive_day / archive_days: the UTC days of the
--   month that hold the document time of an accepted notification (V2 or
--   V1; lookup and history pages open no day);
-- * apple_days_covered: the month's days a loaded Apple report covers, as in
--   apple_reconciliation.csv.
with

notifications as not materialized (
    select * from {{ ref('stg_store__notifications') }}
),

apple_report_days as (
    select * from {{ ref('stg_store__apple_report_days') }}
),

archive_days as (
    select distinct {{ day_of_ms(document_at_ms) }} as day
    from notifications
),

archive_months as (
    select
        substr(day, 1, 7) as month,
        min(day) as first_archive_day,
        max(day) as last_archive_day,
        count(*) as archive_days
    from archive_days
    group by substr(day, 1, 7)
),

apple_months as (
    select month, count(*) as apple_days_covered
    from apple_report_days
    group by month
),

months as (
    select month from archive_months
    union
    select month from apple_months
),

final as (
    select
        months.month,
        archive_months.first_archive_day,
        archive_months.last_archive_day,
        coalesce(archive_months.archive_days, 0) as archive_days,
        coalesce(apple_months.apple_days_covered, 0) as apple_days_covered
    from months
    left join archive_months
        on archive_months.month = months.month
    left join apple_months
        on apple_months.month = months.month
)

select * from final;
