-- Grain: one row per (month, product_id, currency): monthly recurring revenue
-- at the month's end. Documentation/Reports.md mrr.csv:
-- * active_end: subscriptions.csv's active_end for the product, grouped by
--   the currency of each one's current period (int_active_subscriptions);
-- * period: the product's period, the lower median of the lengths of all its
--   paid periods in the store, taken to the nearest of P1W (7 days), P1M
--   (30.4375), P2M (60.875), P3M (91.3125), P6M (182.625) and P1Y (365.25);
--   a length exactly half way goes to the shorter;
-- * mrr_milli: the current periods' prices normalised to a month by that
--   period (P1W x 52 / 12, P1M x 1, P2M / 2, P3M / 3, P6M / 6, P1Y / 12), each
--   subscription's share rounded half up to a milliunit before the sum.
with

periods as not materialized (
    select * from {{ ref('int_subscription_periods') }}
),

active as not materialized (
    select * from {{ ref('int_active_subscriptions') }}
),

boundaries as (
    select * from {{ ref('int_month_boundaries') }}
    where edge = 'end'
),

-- The lower median of a product's lengths from a histogram of them (a
-- product's periods have a handful of distinct lengths): the length whose
-- cumulative count first reaches position (periods + 1) / 2, without sorting
-- every paid period as ranking them would (Documentation/Performance.md
-- "Where the time goes, and what is left").
length_counts as (
    select
        product_id,
        expires_at_ms - purchased_at_ms as length_ms,
        count(*) as length_periods
    from periods
    where is_paid and expires_at_ms is not null
    group by product_id, expires_at_ms - purchased_at_ms
),

cumulative_lengths as (
    select
        product_id,
        length_ms,
        length_periods,
        cast(sum(length_periods) over (
            partition by product_id order by length_ms
            rows between unbounded preceding and current row
        ) as bigint) as periods_through,
        cast(
            sum(length_periods) over (partition by product_id) as bigint
        ) as periods
    from length_counts
),

-- The lower median, in milliseconds; the midpoints between the named periods
-- in days (18.71875, 45.65625, 76.09375, 136.96875, 273.9375) as milliseconds.
product_periods as (
    select
        product_id,
        case
            when length_ms <= 1617300000 then 'P1W'
            when length_ms <= 3944700000 then 'P1M'
            when length_ms <= 6574500000 then 'P2M'
            when length_ms <= 11834100000 then 'P3M'
            when length_ms <= 23668200000 then 'P6M'
            else 'P1Y'
        end as period
    from cumulative_lengths
    where periods_through - length_periods < (periods + 1) / 2
        and (periods + 1) / 2 <= periods_through
),

-- The active subscriptions counted by price first: a share depends only on
-- the price and the product's period, so the sum of the rounded shares is
-- each price's share times its count.
active_prices as (
    select
        at_ms,
        product_id,
        currency,
        gross_milli,
        count(*) as subscriptions
    from active
    group by at_ms, product_id, currency, gross_milli
),

-- A month's share as numerator / denominator, rounded half up:
-- (price x numerator x 2 + denominator) / (denominator x 2).
shares as (
    select
        boundaries.month,
        active_prices.product_id,
        active_prices.currency,
        active_prices.subscriptions,
        product_periods.period,
        (
            active_prices.gross_milli
            * case product_periods.period when 'P1W' then 52 else 1 end * 2
            + case product_periods.period
                when 'P1W' then 12 when 'P2M' then 2 when 'P3M' then 3
                when 'P6M' then 6 when 'P1Y' then 12 else 1
            end
        ) / (
            case product_periods.period
                when 'P1W' then 12 when 'P2M' then 2 when 'P3M' then 3
                when 'P6M' then 6 when 'P1Y' then 12 else 1
            end * 2
        ) as share_milli
    from boundaries
    inner join active_prices
        on active_prices.at_ms = boundaries.at_ms
    inner join product_periods
        on product_periods.product_id = active_prices.product_id
),

final as (
    select
        month,
        product_id,
        currency,
        cast(sum(subscriptions) as bigint) as active_end,
        period,
        sum(subscriptions * share_milli) as mrr_milli
    from shares
    group by month, product_id, currency, period
)

select * from final;
