"""Apple's side: the fiscal months' payments against Apple's books, and Apple's reports against the archive, day by day."""
import datetime
from collections import defaultdict


def fiscal_month_of(first_day, last_day):
    """The calendar month holding most of a period's days (ties: the later month)."""
    day = datetime.date.fromisoformat(first_day)
    counts = defaultdict(int)
    while day <= datetime.date.fromisoformat(last_day):
        counts[f"{day.year:04d}-{day.month:02d}"] += 1
        day += datetime.timedelta(days=1)
    return max(counts, key=lambda month: (counts[month], month))


def apple_payments(store):
    """{fiscal month: {(fiscal month, region, currency): the contract's values}}, Reports.md apple_payments.csv."""
    text = lambda value: '' if value is None else str(value)
    books, periods = defaultdict(lambda: [0, 0]), {}
    reports = {sha: fiscal_month_of(start, end) for sha, start, end in store.db.execute(
        "select file_sha256, period_start, period_end from apple_reports")}
    for sha, start, end in store.db.execute("select file_sha256, period_start, period_end from apple_reports"):
        periods[reports[sha]] = (start, end)
    for sha, region, currency, kind, quantity, share in store.db.execute(
            """select file_sha256, region, partner_share_currency, sale_or_return, quantity, extended_partner_share_milli
               from apple_report_rows"""):
        row = books[(reports[sha], region, currency)]
        row[0] += quantity if kind == 'S' else 0
        row[1] += share
    paid = {}
    for (fiscal, pending, section, region, currency, units, balance, earned, tax, adjustments, withholding, owed, rate,
         proceeds, bank) in store.db.execute(
            """select s.fiscal_month, s.is_pending, r.section, r.region, r.currency, r.units_sold,
                   r.beginning_balance_milli, r.earned_milli, r.input_tax_milli, r.adjustments_milli,
                   r.withholding_tax_milli, r.total_owed_milli, r.exchange_rate, r.proceeds_milli, r.bank_currency
               from apple_payment_rows r join apple_payment_summaries s using (file_sha256)"""):
        paid[(fiscal, region, currency)] = (pending, section, [units, earned, balance or 0, tax, adjustments, withholding,
                                                              owed, rate, proceeds, bank])
    latest = max((key[0] for key in paid), default=None)
    out = defaultdict(dict)
    for key in set(books) | set(paid):
        fiscal = key[0]
        if latest is None or fiscal > latest:
            continue
        start, end = periods.get(fiscal, (None, None))
        # Σ over the loaded report's rows of the key: 0 when it has none; empty only when no report is loaded. A paid
        # row the books have no row for differs, whatever its figures.
        has_row = key in books and fiscal in periods
        book = books.get(key, [0, 0]) if fiscal in periods else None
        pending, section, payment = paid.get(key, (None, None, [None] * 10))
        if key not in paid:
            status = 'no_payment'
        elif pending:
            status = 'pending'  # every row of a summary Apple has not paid, its held section too
        elif section == 'held':
            status = 'held'
        elif has_row and book == [payment[0], payment[1]]:
            status = 'paid'
        else:
            status = 'differs'
        if status in ('held', 'pending'):
            payment[7], payment[8] = None, None
        out[fiscal][key] = [text(start), text(end), text(book[0] if book else None), text(payment[0]),
                            text(book[1] if book else None), text(payment[1])] + [text(v) for v in payment[2:]] + [status]
    return out


def covered_days(store):
    """Apple's calendar days that lie in the period of a loaded Financial Report."""
    covered = set()
    for start, end in store.db.execute("select period_start, period_end from apple_reports"):
        day = datetime.date.fromisoformat(start)
        while day <= datetime.date.fromisoformat(end):
            covered.add(day.isoformat())
            day += datetime.timedelta(days=1)
    return covered


def apple_reconciliation(store, zone):
    """{month: {(month, product, currency): the contract's values}}, Reports.md apple_reconciliation.csv."""
    covered = covered_days(store)
    local_day = lambda ms: datetime.datetime.fromtimestamp(ms / 1000, zone).date().isoformat()
    # Per (product, currency, day): [Apple sold, archive sold, Apple refunded, archive refunded].
    units = defaultdict(lambda: [0, 0, 0, 0])
    money = defaultdict(lambda: [0] * 6)  # per (month, product, currency): Apple gross, ours, Apple refunded, ours,
    currencies = defaultdict(set)         # Apple proceeds, our estimate; and Apple's proceeds currencies
    for sku, day, quantity, price, currency, kind, share, share_currency in store.db.execute(
            """select sku, transaction_date, quantity, customer_price_milli, customer_currency, sale_or_return,
                   extended_partner_share_milli, partner_share_currency from apple_report_rows"""):
        if day not in covered:
            continue
        key = (day[:7], sku, currency)
        if kind == 'S':
            units[(sku, currency, day)][0] += quantity
            money[key][0] += price * quantity
        else:
            units[(sku, currency, day)][2] += abs(quantity)
            money[key][2] += price * abs(quantity)
        money[key][4] += share
        currencies[key].add(share_currency)
    for t in store.transactions:
        if t['paid'] and t['purchased'] is not None:
            day = local_day(t['purchased'])
            if day in covered:
                units[(t['product'], t['currency'], day)][1] += t['quantity']
                money[(day[:7], t['product'], t['currency'])][1] += t['gross']
                money[(day[:7], t['product'], t['currency'])][5] += (t['gross'] * t['percent'] + 50) // 100
        if t['refunded']:
            day = local_day(t['revoked'])
            if day in covered:
                units[(t['product'], t['currency'], day)][3] += t['quantity']
                money[(day[:7], t['product'], t['currency'])][3] += t['refund']
                money[(day[:7], t['product'], t['currency'])][5] -= (t['refund'] * t['percent'] + 50) // 100
    totals = defaultdict(lambda: [0, 0, 0, 0])
    gaps = defaultdict(list)
    for (product, currency, day), counts in units.items():
        key = (day[:7], product, currency)
        totals[key] = [a + b for a, b in zip(totals[key], counts)]
        if counts[0] != counts[1] or counts[2] != counts[3]:
            gaps[key].append(day)
    days = defaultdict(int)
    for day in covered:
        days[day[:7]] += 1
    out = defaultdict(dict)
    for key, (apple_sold, sold, apple_refunded, refunded) in totals.items():
        if not any((apple_sold, sold, apple_refunded, refunded)):
            continue
        more = apple_sold > sold or apple_refunded > refunded
        fewer = apple_sold < sold or apple_refunded < refunded
        status = 'both' if more and fewer else 'archive_short' if more else 'archive_over' if fewer else 'match'
        m = money[key]
        shares = currencies.get(key, set())
        proceeds_currency = '' if not shares else 'mixed' if len(shares) > 1 else next(iter(shares))
        apple_proceeds = '' if proceeds_currency == 'mixed' else m[4]
        out[key[0]][key] = [days[key[0]], apple_sold, sold, apple_refunded, refunded, m[0], m[1], m[2], m[3],
                            apple_proceeds, m[5], proceeds_currency, min(gaps[key], default=''),
                            max(gaps[key], default=''), status]
    return out
