-- Grain: one row per (month, product_id, currency) with a unit on a covered
-- day of the month on either side. Documentation/Reports.md
-- "apple_reconciliation.csv": Apple's financial reports against the archive,
-- day by day on the days a loaded report covers.
-- Apple's side: units sold = sum of S quantities, units refunded = sum of |R
-- quantities|, gross = Customer Price x Quantity of S rows, refunded =
-- |Customer Price| x |Quantity| of R rows (a prorated return's price is the
-- amount returned per unit), proceeds = sum of Extended Partner Share in the
-- rows' Partner Share Currency (empty and 0 without a row, 'mixed' and empty
-- when the rows carry more than one).
-- Gaps: the first and last covered day whose units sold or refunded differ.
-- Status: match / archive_short (Apple counts more, never fewer) /
-- archive_over (Apple counts fewer, never more) / both.
with

archive as (
    select * from {{ ref('int_archive_daily_movements') }}
),

apple_rows as (
    select * from {{ ref('stg_store__apple_report_rows') }}
),

covered_days as (
    select * from {{ ref('stg_store__apple_report_days') }}
),

apple_daily as (
    select
        apple_rows.day,
        covered_days.month,
        apple_rows.product_id,
        apple_rows.currency,
        sum(case when apple_rows.sale_or_return = 'S' then apple_rows.quantity else 0 end)
            as apple_units_sold,
        sum(case when apple_rows.sale_or_return = 'R' then abs(apple_rows.quantity) else 0 end)
            as apple_units_refunded,
        sum(
            case when apple_rows.sale_or_return = 'S'
                then apple_rows.customer_price_milli * apple_rows.quantity else 0 end
        ) as apple_gross_milli,
        sum(
            case when apple_rows.sale_or_return = 'R'
                then abs(apple_rows.customer_price_milli) * abs(apple_rows.quantity) else 0 end
        ) as apple_refunded_milli,
        sum(apple_rows.extended_partner_share_milli) as apple_proceeds_milli,
        min(apple_rows.partner_share_currency) as first_proceeds_currency,
        max(apple_rows.partner_share_currency) as last_proceeds_currency,
        count(*) as apple_rows
    from apple_rows
    inner join covered_days
        on covered_days.day = apple_rows.day
    group by 1, 2, 3, 4
),

sides as (
    select
        day, month, product_id, currency,
        apple_units_sold, apple_units_refunded, apple_gross_milli, apple_refunded_milli, apple_proceeds_milli,
        first_proceeds_currency, last_proceeds_currency, apple_rows,
        0 as archive_units_sold,
        0 as archive_units_refunded,
        0 as archive_gross_milli,
        0 as archive_refunded_milli,
        0 as archive_est_proceeds_milli
    from apple_daily
    union all
    select
        day, month, product_id, currency,
        0, 0, 0, 0, 0,
        null, null, 0,
        units_sold, units_refunded, gross_milli, refunded_milli, est_proceeds_milli
    from archive
),

daily as (
    select
        day,
        month,
        product_id,
        currency,
        sum(apple_units_sold) as apple_units_sold,
        sum(apple_units_refunded) as apple_units_refunded,
        sum(archive_units_sold) as archive_units_sold,
        sum(archive_units_refunded) as archive_units_refunded,
        sum(apple_gross_milli) as apple_gross_milli,
        sum(archive_gross_milli) as archive_gross_milli,
        sum(apple_refunded_milli) as apple_refunded_milli,
        sum(archive_refunded_milli) as archive_refunded_milli,
        sum(apple_proceeds_milli) as apple_proceeds_milli,
        sum(archive_est_proceeds_milli) as archive_est_proceeds_milli,
        min(first_proceeds_currency) as first_proceeds_currency,
        max(last_proceeds_currency) as last_proceeds_currency,
        sum(apple_rows) as apple_rows
    from sides
    group by 1, 2, 3, 4
),

monthly as (
    select
        month,
        product_id,
        currency,
        sum(apple_units_sold) as apple_units_sold,
        sum(archive_units_sold) as archive_units_sold,
        sum(apple_units_refunded) as apple_units_refunded,
        sum(archive_units_refunded) as archive_units_refunded,
        sum(apple_gross_milli) as apple_gross_milli,
        sum(archive_gross_milli) as archive_gross_milli,
        sum(apple_refunded_milli) as apple_refunded_milli,
        sum(archive_refunded_milli) as archive_refunded_milli,
        sum(apple_proceeds_milli) as apple_proceeds_milli,
        sum(archive_est_proceeds_milli) as archive_est_proceeds_milli,
        min(first_proceeds_currency) as first_proceeds_currency,
        max(last_proceeds_currency) as last_proceeds_currency,
        sum(apple_rows) as apple_rows,
        min(
            case when apple_units_sold <> archive_units_sold
                or apple_units_refunded <> archive_units_refunded then day end
        ) as first_gap_day,
        max(
            case when apple_units_sold <> archive_units_sold
                or apple_units_refunded <> archive_units_refunded then day end
        ) as last_gap_day
    from daily
    group by 1, 2, 3
),

days_covered as (
    select month, count(*) as days_covered
    from covered_days
    group by month
),

final as (
    select
        monthly.month,
        monthly.product_id,
        monthly.currency,
        days_covered.days_covered,
        monthly.apple_units_sold,
        monthly.archive_units_sold,
        monthly.apple_units_refunded,
        monthly.archive_units_refunded,
        monthly.apple_gross_milli,
        monthly.archive_gross_milli,
        monthly.apple_refunded_milli,
        monthly.archive_refunded_milli,
        case
            when monthly.apple_rows = 0 then 0
            when monthly.first_proceeds_currency = monthly.last_proceeds_currency
                then monthly.apple_proceeds_milli
        end as apple_proceeds_milli,
        monthly.archive_est_proceeds_milli,
        case
            when monthly.apple_rows = 0 then null
            when monthly.first_proceeds_currency = monthly.last_proceeds_currency
                then monthly.first_proceeds_currency
            else 'mixed'
        end as proceeds_currency,
        monthly.first_gap_day,
        monthly.last_gap_day,
        case
            when monthly.apple_units_sold = monthly.archive_units_sold
                and monthly.apple_units_refunded = monthly.archive_units_refunded
                then 'match'
            when monthly.apple_units_sold >= monthly.archive_units_sold
                and monthly.apple_units_refunded >= monthly.archive_units_refunded
                then 'archive_short'
            when monthly.apple_units_sold <= monthly.archive_units_sold
                and monthly.apple_units_refunded <= monthly.archive_units_refunded
                then 'archive_over'
            else 'both'
        end as status
    from monthly
    inner join days_covered
        on days_covered.month = monthly.month
    where monthly.apple_units_sold <> 0
        or monthly.apple_units_refunded <> 0
        or monthly.archive_units_sold <> 0
        or monthly.archive_units_refunded <> 0
)

select * from final;
