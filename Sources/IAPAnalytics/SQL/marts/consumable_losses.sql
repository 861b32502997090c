-- Grain: one row per (month, product_id, currency) with a consumable refund
-- (by refund month) or a REFUND_DECLINED / REFUND_REVERSED notification for
-- a consumable (by month of its signedDate). Documentation/Reports.md consumable_losses.csv.
-- Decision: a declined/reversed notification whose transaction is not in
-- the store (or not a consumable) is not counted.
with

refunded_transactions as (
    select * from {{ ref('int_refunds') }}
),

notifications as (
    select * from {{ ref('stg_store__notifications') }}
),

transactions as (
    select * from {{ ref('int_transactions_priced') }}
),

consumable_refunds as (
    select
        refund_month as month,
        product_id,
        currency,
        1 as refunds,
        refund_milli as refunded_gross_milli,
        refund_proceeds_milli as lost_proceeds_milli,
        case
            when has_consumption_request_before then 1 else 0
        end as after_consumption_request,
        0 as declined,
        0 as reversed
    from refunded_transactions
    where product_type = {{ product_type('consumable') }}
),

consumable_refund_decisions as (
    select
        {{ month_of_ms(notifications.notified_at_ms) }}
            as month,
        transactions.product_id,
        transactions.currency,
        0 as refunds,
        0 as refunded_gross_milli,
        0 as lost_proceeds_milli,
        0 as after_consumption_request,
        case
            when notifications.notification_type = 'REFUND_DECLINED' then 1
            else 0
        end as declined,
        case
            when notifications.notification_type = 'REFUND_REVERSED' then 1
            else 0
        end as reversed
    from notifications
    inner join transactions
        on notifications.lineage_id = transactions.lineage_id
        and notifications.transaction_id = transactions.transaction_id
    where notifications.notification_type in (
        'REFUND_DECLINED', 'REFUND_REVERSED'
    )
        and transactions.product_type = {{ product_type('consumable') }}
),

losses as (
    select * from consumable_refunds
    union all
    select * from consumable_refund_decisions
),

final as (
    select
        month,
        product_id,
        currency,
        sum(refunds) as refunds,
        sum(refunded_gross_milli) as refunded_gross_milli,
        sum(lost_proceeds_milli) as lost_proceeds_milli,
        sum(after_consumption_request) as after_consumption_request,
        sum(declined) as declined,
        sum(reversed) as reversed
    from losses
    group by 1, 2, 3
)

select * from final;
