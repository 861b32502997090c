-- Grain: one row per transaction (transaction_id). Documentation/Reports.md "Money",
-- "Proceeds rate", "Refund", "Paid", "Product type".
-- Built as a TEMP table: every later model reads it.
-- Decisions where the contract is silent:
-- * Any transaction without price or currency (V1, or an old V2 one) is
--   priced from the catalog's first row of its product, else unpriced.
-- * A free trial (V1 is_trial_period, V2 offerDiscountType FREE_TRIAL without
--   a price) is gross 0 and priced, never unpriced.
-- * The Apple type wins over the catalog type; the catalog types V1 (and
--   type-less) transactions; else an expiry date means auto_renewable.
-- * A missing quantity counts as 1.
-- * A refund does not have to be paid: a revoked free transaction is a
--   refund of 0 (the contract defines refunds by revocation and ownership).
-- The account of each transaction (int_transaction_accounts, a view of this
-- table) is computed here too: a second 1M-row table holding the same
-- transactions cost 1.6 s of analyze at 1M documents.
-- The account mapping comes from int_account_tokens (indexed by token).

with

transactions as (
    select * from {{ ref('stg_store__transactions') }}
),

products as (
    select * from {{ ref('stg_reference__products') }}
),

accounts as (
    select * from {{ ref('int_account_tokens') }}
),

analysis_parameters as (
    select * from {{ source('analysis_parameters') }}
),

first_listed_products as (
    select
        product_id,
        product_type,
        currency,
        price_milli,
        row_number() over (
            partition by product_id order by file_line
        ) as listing_rank
    from products
),

transactions_joined_to_catalog as (
    select
        transactions.*,
        first_listed_products.product_type as catalog_product_type,
        first_listed_products.currency as catalog_currency,
        first_listed_products.price_milli as catalog_price_milli,
        transactions.price_milli is not null
        and transactions.currency is not null as has_own_price,
        first_listed_products.product_id is not null as is_in_catalog
    from transactions
    left join first_listed_products
        on transactions.product_id = first_listed_products.product_id
        and first_listed_products.listing_rank = 1
),

priced as (
    select
        lineage_id,
        transaction_id,
        original_transaction_id,
        coalesce(product_id, '') as product_id,
        app_account_token,
        app_transaction_id,
        format,
        coalesce(
            product_type,
            catalog_product_type,
            case
                when expires_at_ms is not null
                    then {{ product_type('auto_renewable') }}
            end,
            'unknown'
        ) as product_type,
        in_app_ownership_type,
        storefront,
        revocation_percentage,
        case
            when has_own_price then currency
            when is_in_catalog then catalog_currency
            else 'XXX'
        end as currency,
        case
            when has_own_price then price_milli * quantity
            when is_free_trial then 0
            when is_in_catalog then catalog_price_milli * quantity
            else 0
        end as gross_milli,
        not has_own_price and not is_free_trial and not is_in_catalog
            as is_unpriced,
        is_family_shared,
        is_refunded,
        revocation_reason,
        is_trial_offer,
        quantity,
        purchased_at_ms,
        original_purchased_at_ms,
        expires_at_ms,
        revoked_at_ms
    from transactions_joined_to_catalog
),

classified as (
    select
        priced.*,
        not is_family_shared and (gross_milli > 0 or is_unpriced) as is_paid,
        case
            when not is_refunded then null
            -- Documentation/Reports.md "Money": (gross_milli x pct + 50000) / 100000, split so that
            -- no product exceeds 64 bits (gross up to 10^14, pct up to 10^5):
            -- gross = q x 100000 + r gives q x pct + (r x pct + 50000) / 100000,
            -- the same integer for every gross >= 0.
            when revocation_percentage is not null
                then (gross_milli / 100000) * revocation_percentage
                + ((gross_milli % 100000) * revocation_percentage + 50000)
                / 100000
            else gross_milli
        end as refund_milli,
        case
            when analysis_parameters.is_small_business = 1
                then {{ rule('reduced_proceeds_percent') }}
            when product_type = {{ product_type('auto_renewable') }}
                and purchased_at_ms
                >= original_purchased_at_ms
                + {{ rule('reduced_proceeds_after_ms') }}
                then {{ rule('reduced_proceeds_percent') }}
            else {{ rule('standard_proceeds_percent') }}
        end as proceeds_percent
    from priced
    cross join analysis_parameters
),

-- Documentation/Reports.md "Account": accounts.csv mapping of the lower-cased
-- appAccountToken, else the token, else app:<appTransactionId> (one per Apple
-- Account and app), else sub:<originalTransactionId> for auto-renewables,
-- else none (unlinked).
-- Decision: an auto-renewable without originalTransactionId uses its own
-- transactionId.
with_accounts as (
    select
        classified.*,
        case
            when accounts.account_id is not null then accounts.account_id
            when classified.app_account_token is not null
                then classified.app_account_token
            when classified.app_transaction_id is not null
                then 'app:' || classified.app_transaction_id
            when classified.product_type = {{ product_type('auto_renewable') }}
                then 'sub:' || coalesce(
                    classified.original_transaction_id,
                    classified.transaction_id
                )
        end as account_id
    from classified
    left join accounts
        on classified.app_account_token = accounts.app_account_token
),

-- Only the columns later models read: every one of them scans or looks up
-- this table, and the source's own columns (the token, the ownership type,
-- the revocation percentage) are folded into the ones below.
final as (
    select
        lineage_id,
        transaction_id,
        original_transaction_id,
        product_id,
        product_type,
        account_id,
        currency,
        coalesce(storefront, 'unknown') as storefront,
        gross_milli,
        refund_milli,
        is_unpriced,
        is_paid,
        is_refunded,
        is_trial_offer and gross_milli = 0 as is_free_trial,
        quantity,
        purchased_at_ms,
        original_purchased_at_ms,
        expires_at_ms,
        revoked_at_ms,
        revocation_reason,
        (gross_milli * proceeds_percent + 50) / 100 as sale_proceeds_milli,
        (refund_milli * proceeds_percent + 50) / 100 as refund_proceeds_milli,
        {{ month_of_ms(purchased_at_ms) }}
            as purchase_month,
        case when is_refunded then
            {{ month_of_ms(revoked_at_ms) }}
        end as refund_month
    from with_accounts
)

select * from final
