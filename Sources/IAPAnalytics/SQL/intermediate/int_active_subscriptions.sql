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

-- The instants the base counts at (subscriptions.csv): each month's
-- start and the last month's end (every other end is the next start; the
-- last end is T, itself a start when T is a month's first millisecond).
-- Read in place, so each paid period finds the few instants it covers
-- through the boundaries' index instead of testing every instant.
instants as not materialized (
    select boundaries.at_ms from boundaries
    where boundaries.edge = 'start'
        or (
            boundaries.month = (select max(last_month.month) from boundaries as last_month)
            and not exists (
                select 1 from boundaries as starts
                where starts.edge = 'start' and starts.at_ms = boundaries.at_ms
            )
        )
),

paid_periods as not materialized (
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

-- The current period: no later one (greater purchaseDate, then greater
-- transaction ID) of the same product covers the instant. A look-up by
-- subscription and purchase time (int_subscription_periods_by_subscription),
-- not a rank over every (instant, subscription): the rank sorted them all.
final as (
    select
        covering.at_ms,
        covering.product_id,
        covering.original_transaction_id,
        covering.transaction_id,
        covering.currency,
        covering.gross_milli,
        covering.storefront
    from covering
    where not exists (
        select 1 from paid_periods as later
        where later.original_transaction_id = covering.original_transaction_id
            and later.purchased_at_ms >= covering.purchased_at_ms
            and later.purchased_at_ms <= covering.at_ms
            and later.product_id = covering.product_id
            and covering.at_ms < later.expires_at_ms
            and (not later.is_refunded or later.revoked_at_ms > covering.at_ms)
            and (
                later.purchased_at_ms > covering.purchased_at_ms
                or later.transaction_id > covering.transaction_id
            )
    )
)

select * from final;
