-- Grain: one row per (month of refund date, product_type, product_id,
-- currency) with at least one refund. REPORTS.md refunds.csv.
-- refunded_gross_milli sums refund amounts (prorated where the transaction
-- carries revocationPercentage), as consumable_losses.csv defines it.
drop table if exists refunds;

create table refunds as

with

refunded_transactions as (
    select * from temp.int_refunds
),

final as (
    select
        refund_month as month,
        product_type,
        product_id,
        currency,
        count(*) as refunds,
        sum(refund_milli) as refunded_gross_milli,
        sum(is_from_notifications) as from_notifications,
        sum(not is_from_notifications) as from_lookups_only,
        sum(is_unpriced) as unpriced
    from refunded_transactions
    group by 1, 2, 3, 4
)

select * from final;
