#!/usr/bin/env python3
"""Recomputes fourteen report files from a SQLite store, independently of the SQL models, and lists every cell that
differs from a report folder. The rules are read from Documentation/Reports.md and written again here in plain Python,
one subscription at a time, with none of the models' shortcuts (histograms, running counts, one look-up per period):
where both agree on a real archive, a misreading would have to be made twice, in two languages and two shapes.

Checked: churn.csv; expiration_intents.csv; billing_retry.csv; flagged_accounts.csv (the contract's columns, not the
review queue's); apple_payments.csv and apple_reconciliation.csv (from the rows ingest read from Apple's files);
refunds.csv; consumable_losses.csv; subscriptions.csv and countries.csv; mrr.csv;
reconciliation.csv; cohorts.csv; months.csv; and which month folders are written. The store's own inputs are read as
ingest wrote them (the winning version of each transaction, the transactions each V1 body carried, renewal states,
notifications), with the analysis parameters, products.csv and accounts.csv that the last analyze used.

Usage: scripts/recompute-reports.py STORE.sqlite REPORTS_FOLDER [--apple-time-zone ZONE]
(the zone that analyze used for Apple's days, America/Los_Angeles unless --apple-time-zone was given to it)
A folder written with `report --month` holds only the months asked for: run it on one written without.
Exit status 0 when every file agrees, 1 when a cell differs (the first 30 are printed).
"""
import calendar
import csv
import datetime
import os
import sqlite3
import sys
import zoneinfo
from collections import defaultdict

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


def read_transactions(db, environment, small_business):
    """Every transaction of the environment, priced and classified as Reports.md "Common rules" says."""
    mapped = dict(db.execute("select lower(app_account_token), account_id from ref_accounts"))
    catalog = {}
    for product_id, product_type, currency, price in db.execute(
            "select product_id, product_type, currency, price_milli from ref_products order by line"):
        catalog.setdefault(product_id, (product_type, currency, price))
    out = []
    for (tid, otid, pid, purchased, original_purchased, expires, quantity, apple_type, ownership, revoked, v1_trial,
         discount_type, storefront, currency, price, offer_type, percentage, token, app_transaction) in db.execute(
            """select transaction_id, original_transaction_id, product_id, purchase_date, original_purchase_date,
                   expires_date, coalesce(quantity, 1), type, in_app_ownership_type, revocation_date, is_trial_period,
                   offer_discount_type, storefront, currency, price, offer_type, revocation_percentage,
                   lower(app_account_token), app_transaction_id
               from transactions where environment = ?""", (environment,)):
        listed = catalog.get(pid)
        if apple_type:
            product_type = APPLE_TYPES.get(apple_type, apple_type)
        elif listed:
            product_type = listed[0]
        else:
            product_type = 'auto_renewable' if expires is not None else 'unknown'
        free_trial = v1_trial == 1 or discount_type == 'FREE_TRIAL'
        unpriced = False
        if price is not None and currency is not None:
            gross = price * quantity
        elif free_trial:
            gross, currency = 0, (listed[1] if listed else 'XXX')
        elif listed:
            gross, currency = listed[2] * quantity, listed[1]
        else:
            gross, currency, unpriced = 0, 'XXX', True
        refunded = revoked is not None and ownership in (None, 'PURCHASED')
        refund = 0
        if refunded:
            refund = gross if percentage is None else (gross * percentage + 50_000) // 100_000
        renewal_a_year_on = (product_type == 'auto_renewable' and purchased is not None
                             and original_purchased is not None and purchased >= original_purchased + 365 * DAY_MS)
        if token is not None:
            account = mapped.get(token, token)
        elif app_transaction is not None:
            account = 'app:' + app_transaction
        elif product_type == 'auto_renewable':
            account = 'sub:' + (otid or tid)
        else:
            account = None
        out.append(dict(
            account=account, tid=tid, sub=otid or tid, product=pid or '', purchased=purchased,
            original_purchased=original_purchased,
            expires=expires, quantity=quantity, type=product_type, gross=gross, currency=currency, unpriced=unpriced,
            paid=ownership != 'FAMILY_SHARED' and (gross > 0 or unpriced), refunded=refunded, revoked=revoked,
            refund=refund, percent=85 if small_business or renewal_a_year_on else 70,
            free_trial=(free_trial or offer_type == 1) and gross == 0, storefront=storefront or 'unknown',
            purchase_month=month_of(purchased) if purchased is not None else None,
            refund_month=month_of(revoked) if refunded else None))
    return out


class Store:
    def __init__(self, path):
        # Read-only: a mistyped path is an error, not a new empty file.
        self.db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        environment, self.as_of, small_business = self.db.execute(
            "select environment, as_of_ms, is_small_business from analysis_parameters").fetchone()
        self.environment = environment
        self.transactions = read_transactions(self.db, environment, small_business == 1)
        self.by_id = {t['tid']: t for t in self.transactions}
        self.by_subscription = defaultdict(list)
        self.periods = defaultdict(list)
        for t in self.transactions:
            if t['type'] == 'auto_renewable':
                self.by_subscription[t['sub']].append(t)
                if t['paid'] and t['purchased'] is not None and t['expires'] is not None:
                    self.periods[t['sub']].append(t)
        self._active = {}

    def active_at(self, instant):
        """{(subscription, product): its current period} of the subscriptions active at an instant."""
        if instant not in self._active:
            active = {}
            for sub, periods in self.periods.items():
                for p in periods:
                    if p['purchased'] <= instant < p['expires'] and not (p['refunded'] and p['revoked'] <= instant):
                        key = (sub, p['product'])
                        current = active.get(key)
                        if current is None or (p['purchased'], p['tid']) > (current['purchased'], current['tid']):
                            active[key] = p
            self._active[instant] = active
        return self._active[instant]

    def new_paid(self):
        """{subscription: its first paid period}, for those whose start the archive saw."""
        out = {}
        for sub, periods in self.periods.items():
            first = min(periods, key=lambda p: (p['purchased'], p['tid']))
            earliest = min(t['purchased'] for t in self.by_subscription[sub] if t['purchased'] is not None)
            if first['original_purchased'] is None or first['original_purchased'] >= earliest:
                out[sub] = first
        return out

    def product_periods(self):
        lengths = defaultdict(list)
        for periods in self.periods.values():
            for p in periods:
                lengths[p['product']].append(p['expires'] - p['purchased'])
        out = {}
        for product, values in lengths.items():
            values.sort()
            days = values[(len(values) + 1) // 2 - 1] / DAY_MS
            out[product] = min(NAMED_PERIODS, key=lambda named: (abs(days - named[1]), named[1]))[0]
        return out

    def churn_events(self):
        """{(month, product, churn type, reason): subscriptions}, Reports.md churn.csv's rules in their order."""
        expired = {}
        for nid, tid, subtype in self.db.execute(
                """select notification_id, transaction_id, subtype from notifications where environment = ?
                   and format = 'v2' and notification_type = 'EXPIRED' and transaction_id is not null""",
                (self.environment,)):
            expired.setdefault(tid, []).append((nid, subtype))
        intents, states = {}, defaultdict(list)
        for doc, otid, time, auto_renew, intent, retrying in self.db.execute(
                """select document_id, original_transaction_id, document_time, auto_renew_status, expiration_intent,
                   is_in_billing_retry_period from renewal_infos where environment = ?""", (self.environment,)):
            intents[(doc, otid)] = intent
            states[otid].append((time, auto_renew, intent, retrying))
        events = defaultdict(int)
        self.churned = set()
        self.churned_by_storefront = defaultdict(int)
        self.intents = defaultdict(int)
        for sub, periods in self.periods.items():
            known = [t for t in self.by_subscription[sub] if t['purchased'] is not None]
            for x in periods:
                later = [t for t in known if t['purchased'] > x['purchased']]
                end = min(later, key=lambda t: (t['purchased'], t['tid']))['purchased'] if later else self.as_of
                reason, intent = None, None
                if x['refunded'] and not any(x['purchased'] < t['purchased'] <= x['revoked'] for t in known):
                    reason = 'refunded'
                elif x['tid'] in expired:
                    nid, subtype = sorted(expired[x['tid']])[0]
                    intent = intents.get((nid, sub))
                    reason = EXPIRED_SUBTYPES.get(subtype) or INTENTS.get(intent, 'unknown')
                elif x['expires'] < end:
                    before = [s for s in states.get(sub, []) if s[0] < end]
                    newest = max(before, key=lambda s: s[0]) if before else None
                    long_gap = end >= x['expires'] + 60 * DAY_MS
                    intent = newest[2] if newest else None
                    if newest and newest[3] == 1:
                        reason = 'billing_error' if long_gap else None
                    elif newest and newest[2] is not None:
                        reason = INTENTS.get(newest[2], 'unknown')
                    elif newest and newest[1] == 0:
                        reason = 'customer_canceled'
                    elif long_gap:
                        reason = 'unknown'
                if reason:
                    self.churned.add(x['tid'])
                    month = x['refund_month'] if reason == 'refunded' else month_of(x['expires'])
                    events[(month, x['product'], CHURN_TYPES[reason], reason)] += 1
                    self.churned_by_storefront[(month, x['storefront'], CHURN_TYPES[reason])] += 1
                    if reason != 'refunded':
                        number = intent if intent is not None else REASON_INTENTS[reason]
                        self.intents[(month, x['product'], str(number))] += 1
        return events


def billing_episodes(store):
    """{(month, product): [episodes, recovered, recovered_in_grace, expired, pending]}, Reports.md billing_retry.csv."""
    periods = {p['tid']: p for ps in store.periods.values() for p in ps}
    grace = {}
    for doc, otid, grace_end, retrying in store.db.execute(
            """select document_id, original_transaction_id, grace_period_expires_date, is_in_billing_retry_period
               from renewal_infos where environment = ?""", (store.environment,)):
        grace[(doc, otid)] = (grace_end, retrying)
    carried = defaultdict(list)
    for doc, otid, tid, expires in store.db.execute(
            """select document_id, original_transaction_id, transaction_id, expires_date from transaction_versions
               where environment = ? and format = 'v1' and expires_date is not null""", (store.environment,)):
        carried[(doc, otid)].append((expires, tid))
    first = {}
    for nid, fmt, time, tid, otid in store.db.execute(
            """select notification_id, format, document_time, transaction_id, original_transaction_id from notifications
               where environment = ? and notification_type = 'DID_FAIL_TO_RENEW'""", (store.environment,)):
        if fmt == 'v2':
            failed = [(tid, otid or (periods[tid]['sub'] if tid in periods else None))] if tid else []
        else:
            failed = [(max(carried[(nid, sub)])[1], sub) for (doc, sub), (_, retrying) in grace.items()
                      if doc == nid and retrying == 1 and carried.get((nid, sub))]
        for x_tid, sub in failed:
            if x_tid in periods and (x_tid not in first or (time, nid) < first[x_tid][:2]):
                first[x_tid] = (time, nid, grace.get((nid, sub), (None, None))[0])
    episodes = defaultdict(lambda: [0] * 5)
    for x_tid, (_, _, grace_end) in first.items():
        x = periods[x_tid]
        row = episodes[(month_of(x['expires']), x['product'])]
        row[0] += 1
        recoveries = [t['purchased'] for t in store.by_subscription[x['sub']] if t['purchased'] is not None
                      and x['purchased'] < t['purchased'] <= x['expires'] + 60 * DAY_MS]
        if recoveries:
            row[1] += 1
            row[2] += grace_end is not None and min(recoveries) < grace_end
        elif x_tid in store.churned:
            row[3] += 1
        else:
            row[4] += 1
    return episodes


def iso_seconds(ms):
    return datetime.datetime.fromtimestamp(ms // 1000, datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')


def flagged_accounts(store, month, declines):
    """{(account,): the contract's columns} of the accounts a rule flags at the month's end (Reports.md)."""
    (repeat_min, burst_min, burst_ms, rate_min, rate_percent, window_ms) = store.db.execute(
        """select repeat_refunds_min, burst_refunds_min, burst_window_ms, high_rate_min_refunds, high_rate_min_percent,
           window_ms from analysis_parameters""").fetchone()
    end = first_ms(plus_months(month, 1))
    start = end - window_ms
    accounts = defaultdict(lambda: dict(window=[], purchases=0, refunds=0, declined=0))
    for t in store.transactions:
        if t['account'] is None:
            continue
        if t['paid'] and t['purchased'] is not None and t['purchased'] < end:
            accounts[t['account']]['purchases'] += 1
        if t['refunded'] and t['revoked'] < end:
            accounts[t['account']]['refunds'] += 1
            if t['revoked'] >= start:
                accounts[t['account']]['window'].append(t)
    for tid, signed in declines:
        t = store.by_id.get(tid)
        if t is not None and t['account'] is not None and start <= signed < end:
            accounts[t['account']]['declined'] += 1
    out = {}
    for account, a in accounts.items():
        window = sorted(a['window'], key=lambda t: (t['revoked'], t['tid']))
        consumable = [t['revoked'] for t in window if t['type'] == 'consumable']
        rules = []
        if len(consumable) >= burst_min and any(
                sum(1 for d in consumable if first <= d <= first + burst_ms) >= burst_min for first in consumable):
            rules.append('consumable_refund_burst')
        if a['refunds'] >= rate_min and a['refunds'] * 100 >= rate_percent * a['purchases']:
            rules.append('high_refund_rate')
        if len(window) >= repeat_min:
            rules.append('repeat_refunds')
        if rules:
            out[(account,)] = [';'.join(rules), len(window), len(consumable), a['declined'], a['purchases'],
                               a['refunds'],
                               iso_seconds(window[0]['revoked']) if window else '',
                               iso_seconds(window[-1]['revoked']) if window else '',
                               ';'.join(t['tid'] for t in window), month]
    return out


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
        book = books.get(key) if fiscal in periods else None
        pending, section, payment = paid.get(key, (None, None, [None] * 10))
        if key not in paid:
            status = 'no_payment'
        elif section == 'held':
            status = 'held'
        elif pending:
            status = 'pending'
        elif book is not None and book == [payment[0], payment[1]]:
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


def months_written(store, churn, episodes, answered, sales, refunds):
    """The month folders Reports.md "Months written" asks for: from the first observed month (the earliest accepted
    notification, V2 or V1, archived or from Notification History), or the first month with counted activity when that
    is later, to the month of T."""
    observed = store.db.execute(
        """select min(document_time) from notifications where environment = ? and notification_type <> 'TEST'""",
        (store.environment,)).fetchone()[0]
    if observed is None:
        return []
    activity = ({k[0] for k in churn} | {k[0] for k in episodes} | {m for m, rows in sales.items() if rows}
                | {m for m, rows in refunds.items() if rows} | set(answered))
    first = max([month_of(observed)] + ([min(activity)] if activity else []))
    out, month = [], first
    while month <= month_of(store.as_of):
        out.append(month)
        month = plus_months(month, 1)
    return out


def archive_days(store, covered_by_month):
    """{(month,): [provisional, first_archive_day, last_archive_day, archive_days, apple_days_covered]} of months.csv."""
    days = defaultdict(set)
    for (time,) in store.db.execute(
            "select document_time from notifications where environment = ? and notification_type <> 'TEST'",
            (store.environment,)):
        day = datetime.datetime.fromtimestamp(time / 1000, datetime.timezone.utc).date().isoformat()
        days[day[:7]].add(day)
    return lambda month: [
        'true' if store.as_of < first_ms(plus_months(month, 1)) + 60 * DAY_MS else 'false',
        min(days[month], default=''), max(days[month], default=''), len(days[month]), covered_by_month.get(month, 0)]


def recompute(store, months, zone):
    """({file: {key: [values]}} for every month written, the month folders the contract asks for); the columns
    compared are listed in COLUMNS."""
    files = defaultdict(dict)
    new_paid = store.new_paid()
    product_periods = store.product_periods()
    free_trials = [t for t in store.transactions if t['type'] == 'auto_renewable' and t['free_trial']
                   and t['purchased'] is not None]
    sales, refunds = defaultdict(list), defaultdict(list)
    for t in store.transactions:
        if t['paid'] and t['purchased'] is not None:
            sales[t['purchase_month']].append(t)
        if t['refunded']:
            refunds[t['refund_month']].append(t)
    churn = store.churn_events()
    # A refund is "from notifications" when a notification (V2 or V1) carried the transaction revoked on the date
    # that the winning version gives; from lookups only otherwise.
    revocations_notified = defaultdict(set)
    for tid, revoked in store.db.execute(
            """select transaction_id, revocation_date from transaction_versions where environment = ?
               and source in ('v2_notification', 'v1_notification') and revocation_date is not null""",
            (store.environment,)):
        revocations_notified[tid].add(revoked)
    notified_refunds = {t['tid'] for t in store.transactions
                        if t['refunded'] and t['revoked'] in revocations_notified.get(t['tid'], ())}
    episodes = billing_episodes(store)
    payments = apple_payments(store)
    reconciled = apple_reconciliation(store, zone)
    requested, answered, declines = defaultdict(list), defaultdict(list), []
    for kind, tid, signed in store.db.execute(
            """select notification_type, transaction_id, signed_date from notifications where environment = ?
               and format = 'v2' and transaction_id is not null and signed_date is not null and notification_type in
               ('CONSUMPTION_REQUEST', 'REFUND_DECLINED', 'REFUND_REVERSED')""", (store.environment,)):
        if kind == 'CONSUMPTION_REQUEST':
            requested[tid].append(signed)
        else:
            answered[month_of(signed)].append((kind, tid))
            if kind == 'REFUND_DECLINED':
                declines.append((tid, signed))
    consumables = {t['tid']: t for t in store.transactions if t['type'] == 'consumable'}
    expected_months = months_written(
        store, churn, episodes, {m for m, rows in answered.items() if any(tid in consumables for _, tid in rows)},
        sales, refunds)
    covered_by_month = defaultdict(int)
    for day in covered_days(store):
        covered_by_month[day[:7]] += 1
    month_row = archive_days(store, covered_by_month)
    as_of_month = month_of(store.as_of)
    for month in months:
        start = store.active_at(first_ms(month))
        end = store.active_at(store.as_of if month == as_of_month else first_ms(plus_months(month, 1)))
        base, countries = defaultdict(lambda: [0] * 9), defaultdict(lambda: [0] * 8)
        mrr = defaultdict(lambda: [0, 0])
        for (sub, product), p in start.items():
            base[(month, product)][0] += 1
            countries[(month, p['storefront'])][0] += 1
        for sub, p in new_paid.items():
            if p['purchase_month'] == month:
                base[(month, p['product'])][1] += 1
                countries[(month, p['storefront'])][1] += 1
        for (event_month, product, churn_type, _), count in churn.items():
            if event_month == month:
                base[(month, product)][2 + CHURN_TYPE_COLUMNS.index(churn_type)] += count
        for (event_month, storefront, churn_type), count in store.churned_by_storefront.items():
            if event_month == month:
                countries[(month, storefront)][2 + CHURN_TYPE_COLUMNS.index(churn_type)] += count
        for (sub, product), p in end.items():
            base[(month, product)][5] += 1
            countries[(month, p['storefront'])][5] += 1
            numerator, denominator = MONTHLY_SHARE[product_periods[product]]
            group = mrr[(month, product, p['currency'])]
            group[0] += 1
            group[1] += (p['gross'] * numerator * 2 + denominator) // (denominator * 2)
        for trial in free_trials:
            if trial['purchase_month'] == month:
                base[(month, trial['product'])][6] += 1
            if trial['expires'] is not None and month_of(trial['expires']) == month and trial['expires'] <= store.as_of:
                base[(month, trial['product'])][7] += 1
                later = [t for t in store.by_subscription[trial['sub']]
                         if t['purchased'] is not None and t['purchased'] > trial['purchased']]
                following = min(later, key=lambda t: (t['purchased'], t['tid'])) if later else None
                if following and following['paid'] and following['purchased'] <= trial['expires'] + 60 * DAY_MS:
                    base[(month, trial['product'])][8] += 1
        money = defaultdict(lambda: [0] * 9)
        for t in sales.get(month, []):
            row = money[(month, t['currency'], t['type'])]
            row[0] += 1
            row[1] += t['gross']
            row[4] += t['gross']
            row[5] += (t['gross'] * t['percent'] + 50) // 100
            row[8] += t['unpriced']
            countries[(month, t['storefront'])][7] += t['quantity']
        for t in refunds.get(month, []):
            row = money[(month, t['currency'], t['type'])]
            row[2] += 1
            row[3] += t['refund']
            row[4] -= t['refund']
            row[5] -= (t['refund'] * t['percent'] + 50) // 100
            if t['purchase_month'] is not None and t['purchase_month'] < month:
                row[6] += 1
                row[7] += t['refund']
            row[8] += t['unpriced']
            countries[(month, t['storefront'])][6] += 1
        refunded, losses = defaultdict(lambda: [0] * 5), defaultdict(lambda: [0] * 6)
        for t in refunds.get(month, []):
            row = refunded[(month, t['type'], t['product'], t['currency'])]
            row[0] += 1
            row[1] += t['refund']
            row[2 if t['tid'] in notified_refunds else 3] += 1
            row[4] += t['unpriced']
            if t['type'] == 'consumable':
                loss = losses[(month, t['product'], t['currency'])]
                loss[0] += 1
                loss[1] += t['refund']
                loss[2] += (t['refund'] * t['percent'] + 50) // 100
                loss[3] += any(signed < t['revoked'] for signed in requested.get(t['tid'], []))
        for kind, tid in answered.get(month, []):
            if tid in consumables:
                t = consumables[tid]
                losses[(month, t['product'], t['currency'])][4 if kind == 'REFUND_DECLINED' else 5] += 1
        files[f"{month}/refunds.csv"] = dict(refunded)
        files["months.csv"][(month,)] = month_row(month)
        files[f"{month}/apple_payments.csv"] = payments.get(month, {})
        files[f"{month}/apple_reconciliation.csv"] = reconciled.get(month, {})
        files[f"{month}/flagged_accounts.csv"] = flagged_accounts(store, month, declines)
        files[f"{month}/billing_retry.csv"] = {k: v for k, v in episodes.items() if k[0] == month}
        files[f"{month}/consumable_losses.csv"] = {k: v for k, v in losses.items() if any(v)}
        files[f"{month}/subscriptions.csv"] = {k: v for k, v in base.items() if any(v)}
        files[f"{month}/countries.csv"] = {k: v for k, v in countries.items() if any(v)}
        files[f"{month}/mrr.csv"] = {k: [v[0], product_periods[k[1]], v[1]] for k, v in mrr.items()}
        files[f"{month}/reconciliation.csv"] = {k: v for k, v in money.items() if any(v)}
        files[f"{month}/churn.csv"] = {k: [v] for k, v in churn.items() if k[0] == month}
        files[f"{month}/expiration_intents.csv"] = {k: [v] for k, v in store.intents.items() if k[0] == month}
    cohorts = defaultdict(set)
    for sub, p in new_paid.items():
        if p['purchase_month'] in months:
            cohorts[p['purchase_month']].add(sub)
    for cohort, members in cohorts.items():
        for k in range(1, 25):
            instant = first_ms(plus_months(cohort, k))
            if instant > store.as_of:
                break
            active = {sub for (sub, _) in store.active_at(instant) if sub in members}
            size = len(members)
            files["cohorts.csv"][(cohort, str(k))] = [size, len(active), (1000 * len(active) * 2 + size) // (size * 2)]
    return files, expected_months


# Per file: how many columns form the key, and the value columns compared (None: every other column).
COLUMNS = {
    'churn.csv': (4, None),
    'subscriptions.csv': (2, None),
    'countries.csv': (2, None),
    'mrr.csv': (3, None),
    'reconciliation.csv': (3, None),
    'cohorts.csv': (2, None),
    'months.csv': (1, None),
    'billing_retry.csv': (2, None),
    'apple_payments.csv': (3, None),
    'apple_reconciliation.csv': (3, None),
    'flagged_accounts.csv': (1, ['rules', 'refunds_90d', 'consumable_refunds_90d', 'declined_90d', 'lifetime_purchases',
                                 'lifetime_refunds', 'first_refund', 'last_refund', 'evidence', 'month']),
    'expiration_intents.csv': (3, None),
    'refunds.csv': (4, None),
    'consumable_losses.csv': (3, None),
}


def differences(files, reports):
    found = []
    for name, expected in sorted(files.items()):
        key_columns, compared = COLUMNS[os.path.basename(name)]
        written = {}
        path = os.path.join(reports, name)
        if os.path.exists(path):
            with open(path, newline='') as f:
                rows = csv.reader(f)
                header = next(rows)
                for row in rows:
                    values = row[key_columns:] if compared is None else [row[header.index(c)] for c in compared]
                    written[tuple(row[:key_columns])] = values
        for key in sorted(set(expected) | set(written)):
            ours = [str(v) for v in expected[key]] if key in expected else None
            theirs = written.get(key)
            if ours != theirs:
                found.append(f"{name} {list(key)}: recomputed {ours}, written {theirs}")
    return found


def main():
    arguments = sys.argv[1:]
    zone = 'America/Los_Angeles'
    if len(arguments) == 4 and arguments[2] == '--apple-time-zone':
        zone = arguments[3]
        arguments = arguments[:2]
    if len(arguments) != 2:
        sys.exit(__doc__)
    store_path, reports = arguments
    for path in (store_path, reports):
        if not os.path.exists(path):
            sys.exit(f"recompute-reports: {path} does not exist; give a SQLite store and the report folder written from it.")
    store = Store(store_path)
    months = sorted(d for d in os.listdir(reports) if len(d) == 7 and d[4] == '-' and d[:4].isdigit())
    files, expected_months = recompute(store, months, zoneinfo.ZoneInfo(zone))
    found = differences(files, reports)
    if months != expected_months:
        found.append(f"month folders: recomputed {expected_months}, written {months}")
    for line in found[:30]:
        print(line)
    periods = sum(len(p) for p in store.periods.values())
    print(f"recompute-reports: {len(months)} months, {len(store.transactions)} transactions, {periods} paid periods: "
          f"{len(found)} difference(s)")
    sys.exit(1 if found else 0)


if __name__ == '__main__':
    main()
