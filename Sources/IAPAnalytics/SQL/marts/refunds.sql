-- Grain: one row per (month of refund date, product_type, product_id,
-- currency) with at least one refund. Documentation/Reports.md refunds.csv.
-- refunded_gross_milli sums refund amounts (prorated where the transaction
-- carries revocationPercentage), as consumable_losses.csv defines it.
with

refunded_transactions as (
    select * from {{ ref('int_refunds') }}
),

final as (
    select
        refund_month as month,
        product_type,
        product_id,
        currency,
        count(*) as refunds,
        sum(refund_milli) as refunded_gross_milli,
        count(*) filter (where is_from_notifications) as from_notifications,
        count(*) filter (where not is_from_notifications)
            as from_lookups_only,
        count(*) filter (where is_unpriced) as unpriced
    from refunded_transactions
    group by 1, 2, 3, 4
)

select * from final;
