-- Grain: one row per (month, edge): the instants at which
-- Documentation/Reports.md subscriptions.csv counts active subscriptions,
-- edge 'start' (the month's first millisecond) and 'end' (the next month's
-- first millisecond, or T for the month of T), for every month from the
-- first subscription purchase to the month of T.
-- Built as a TEMP table, indexed by the instant: the base joins a million
-- periods to these few rows by range. The instant is cast to an integer so
-- that SQLite's column has integer affinity: without it the index cannot
-- serve a range against an integer column, and every period was compared
-- with every instant (5 s at 1M notifications).
with recursive

analysis_parameters as (
    select * from {{ source('analysis_parameters') }}
),

periods as (
    select * from {{ ref('int_subscription_periods') }}
),

first_month as (
    select {{ month_of_ms(min(purchased_at_ms)) }} as month
    from periods
),

as_of as (
    select
        {{ month_of_ms(as_of_ms) }} as month,
        as_of_ms
    from analysis_parameters
    where as_of_ms is not null
),

months (month) as (
    select first_month.month
    from first_month
    inner join as_of
        on first_month.month <= as_of.month
    union all
    select {{ month_after(months.month) }}
    from months
    where months.month < (select as_of.month from as_of)
),

final as (
    select
        months.month,
        'start' as edge,
        cast({{ day_start_ms(months.month || '-01') }} as bigint) as at_ms
    from months
    union all
    select
        months.month,
        'end' as edge,
        cast(case
            when {{ month_end_ms(months.month) }} > as_of.as_of_ms then as_of.as_of_ms
            else {{ month_end_ms(months.month) }}
        end as bigint) as at_ms
    from months
    cross join as_of
)

select * from final;
