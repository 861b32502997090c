"""The contract's constants and month arithmetic (Documentation/Reports.md), written again for the recomputation."""
import calendar
import datetime


DAY_MS = 86_400_000
APPLE_TYPES = {'Auto-Renewable Subscription': 'auto_renewable', 'Non-Renewing Subscription': 'non_renewing',
               'Consumable': 'consumable', 'Non-Consumable': 'non_consumable'}
NAMED_PERIODS = [('P1W', 7), ('P1M', 30.4375), ('P2M', 60.875), ('P3M', 91.3125), ('P6M', 182.625), ('P1Y', 365.25)]
MONTHLY_SHARE = {'P1W': (52, 12), 'P1M': (1, 1), 'P2M': (1, 2), 'P3M': (1, 3), 'P6M': (1, 6), 'P1Y': (1, 12)}
INTENTS = {1: 'customer_canceled', 2: 'billing_error', 3: 'price_increase_declined', 4: 'product_unavailable'}
REASON_INTENTS = {'customer_canceled': 1, 'billing_error': 2, 'price_increase_declined': 3, 'product_unavailable': 4,
                  'unknown': 5}
EXPIRED_SUBTYPES = {'VOLUNTARY': 'customer_canceled', 'PRICE_INCREASE': 'price_increase_declined',
                    'BILLING_RETRY': 'billing_error', 'PRODUCT_NOT_FOR_SALE': 'product_unavailable'}
CHURN_TYPE_COLUMNS = ['voluntary', 'involuntary', 'other']
CHURN_TYPES = {'customer_canceled': 'voluntary', 'price_increase_declined': 'voluntary', 'refunded': 'voluntary',
               'billing_error': 'involuntary', 'product_unavailable': 'other', 'unknown': 'other'}


def month_of(ms):
    d = datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc)
    return f"{d.year:04d}-{d.month:02d}"


def first_ms(month):
    return calendar.timegm((int(month[:4]), int(month[5:]), 1, 0, 0, 0)) * 1000


def plus_months(month, k):
    n = int(month[:4]) * 12 + int(month[5:]) - 1 + k
    return f"{n // 12:04d}-{n % 12 + 1:02d}"
