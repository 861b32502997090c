-- Grain: one row per (fiscal_month, region, currency): Apple's books (its
-- financial reports) tied to Apple's payment (its payment summaries) for each
-- of Apple's fiscal months. Documentation/Reports.md "apple_payments.csv":
-- * keys for fiscal months up to the latest one with a loaded payment summary;
-- * Apple's books: S units and the Σ Extended Partner Share of the rows whose
--   Region and Partner Share Currency are the key's, in the reports of the
--   fiscal month (empty when no report of the month is loaded);
-- * the payment as written; status paid / differs / held / pending /
--   no_payment. Every row of a pending summary is pending, its rows after a
--   blank row too: Apple decides what it holds when it pays.
-- month: the report folder the row is written in, the fiscal month's name.
with

reports as (
    select * from {{ ref('stg_store__apple_reports') }}
),

report_rows as (
    select * from {{ ref('stg_store__apple_report_rows') }}
),

payment_rows as (
    select * from {{ ref('stg_store__apple_payment_rows') }}
),

latest_summary as (
    select max(fiscal_month) as fiscal_month from payment_rows
),

report_months as (
    select
        fiscal_month,
        min(period_start) as period_start,
        max(period_end) as period_end
    from reports
    group by fiscal_month
),

books as (
    select
        reports.fiscal_month,
        report_rows.region,
        report_rows.partner_share_currency as currency,
        sum(case when report_rows.sale_or_return = 'S' then report_rows.quantity else 0 end) as units_sold,
        sum(report_rows.extended_partner_share_milli) as earned_milli
    from report_rows
    inner join reports
        on reports.file_sha256 = report_rows.file_sha256
    where report_rows.region is not null
    group by reports.fiscal_month, report_rows.region, report_rows.partner_share_currency
),

keys as (
    select fiscal_month, region, currency from books
    union
    select fiscal_month, region, currency from payment_rows
),

final as (
    select
        keys.fiscal_month as month,
        keys.fiscal_month,
        keys.region,
        keys.currency,
        report_months.period_start,
        report_months.period_end,
        case
            when report_months.fiscal_month is not null then coalesce(books.units_sold, 0)
        end as apple_units_sold,
        payment_rows.units_sold as payment_units_sold,
        case
            when report_months.fiscal_month is not null then coalesce(books.earned_milli, 0)
        end as apple_earned_milli,
        payment_rows.earned_milli as payment_earned_milli,
        payment_rows.beginning_balance_milli,
        payment_rows.input_tax_milli,
        payment_rows.adjustments_milli,
        payment_rows.withholding_tax_milli,
        payment_rows.total_owed_milli,
        payment_rows.exchange_rate,
        payment_rows.proceeds_milli,
        payment_rows.bank_currency,
        case
            when payment_rows.line is null then 'no_payment'
            when payment_rows.is_pending then 'pending'
            when payment_rows.section = 'held' then 'held'
            when books.fiscal_month is null then 'differs'
            when books.units_sold = payment_rows.units_sold
                and books.earned_milli = payment_rows.earned_milli then 'paid'
            else 'differs'
        end as status
    from keys
    cross join latest_summary
    left join books
        on books.fiscal_month = keys.fiscal_month
        and books.region = keys.region
        and books.currency = keys.currency
    left join payment_rows
        on payment_rows.fiscal_month = keys.fiscal_month
        and payment_rows.region = keys.region
        and payment_rows.currency = keys.currency
    left join report_months
        on report_months.fiscal_month = keys.fiscal_month
    where keys.fiscal_month <= latest_summary.fiscal_month
)

select * from final;
