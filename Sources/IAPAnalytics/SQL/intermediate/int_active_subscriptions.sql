-- Grain: one row per (at_ms, product_id, original_transaction_id): a
-- subscription active under a product at one of the instants the base counts
-- at (int_month_boundaries: each month's first millisecond, and the last
-- month's end), with its current period. Documentation/Reports.md mrr.csv:
-- of the paid periods of the product that make it active at that instant
-- (purchaseDate <= t < expiresDate, not refunded by t), the current one has
-- the greatest purchaseDate, then the greatest transaction ID; its currency,
-- price (gross_milli: the V2 price, else products.csv) and storefront
-- ('unknown' for V1) decide mrr.csv and countries.csv.
-- Built as a TEMP table.
with

periods as not materialized (
    select * from {{ ref('int_subscription_periods') }}
),

boundaries as not materialized (
    select * from {{ ref('int_month_boundaries') }}
),

-- The instants to count at, as int_subscription_base counts: each month's
-- start and the last month's end (every other end is the next start).
instants as (
    select distinct boundaries.at_ms from boundaries
    where boundaries.edge = 'start'
        or boundaries.month = (select max(last_month.month) from boundaries as last_month)
),

paid_periods as (
    select * from periods
    where is_paid and expires_at_ms is not null
),

covering as (
    select
        instants.at_ms,
        paid_periods.product_id,
        paid_periods.original_transaction_id,
        paid_periods.transaction_id,
        paid_periods.purchased_at_ms,
        paid_periods.currency,
        paid_periods.gross_milli,
        paid_periods.storefront
    from paid_periods
    {{ fixed_order_join }} instants
        on instants.at_ms >= paid_periods.purchased_at_ms
        and instants.at_ms < paid_periods.expires_at_ms
    where not paid_periods.is_refunded or paid_periods.revoked_at_ms > instants.at_ms
),

ranked as (
    select
        covering.*,
        row_number() over (
            partition by covering.at_ms, covering.product_id, covering.original_transaction_id
            order by covering.purchased_at_ms desc, covering.transaction_id desc
        ) as period_rank
    from covering
),

final as (
    select
        at_ms,
        product_id,
        original_transaction_id,
        transaction_id,
        currency,
        gross_milli,
        storefront
    from ranked
    where period_rank = 1
)

select * from final;
