"""The store's transactions priced and classified, the subscriber base, churn, billing episodes and flagged accounts,
one subscription at a time."""
import datetime
import sqlite3
from collections import defaultdict

from recompute.rules import (
    DAY_MS, APPLE_TYPES, NAMED_PERIODS, INTENTS, REASON_INTENTS, EXPIRED_SUBTYPES, CHURN_TYPES, month_of, first_ms,
    plus_months)


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
        for nid, tid, subtype, time in self.db.execute(
                """select notification_id, transaction_id, subtype, document_time from notifications
                   where environment = ? and format = 'v2' and notification_type = 'EXPIRED'
                   and transaction_id is not null""",
                (self.environment,)):
            expired.setdefault(tid, []).append((time, nid, subtype))
        intents, states = {}, defaultdict(list)
        for doc, otid, time, auto_renew, intent, retrying in self.db.execute(
                """select document_id, original_transaction_id, document_time, auto_renew_status, expiration_intent,
                   is_in_billing_retry_period from renewal_infos where environment = ?""", (self.environment,)):
            intents[(doc, otid)] = intent
            states[otid].append((time, auto_renew, intent, retrying, doc))
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
                    # Several EXPIRED for one period: the newest, then the greatest notification ID.
                    _, nid, subtype = max(expired[x['tid']])
                    intent = intents.get((nid, sub))
                    reason = EXPIRED_SUBTYPES.get(subtype) or INTENTS.get(intent, 'unknown')
                elif x['expires'] < end:
                    before = [s for s in states.get(sub, []) if s[0] < end]
                    # Ties in time: the state that says more of an end, in the rule's order, then the greatest ID.
                    newest = max(before, key=lambda s: (s[0], s[3] == 1, s[2] is not None, s[1] == 0, s[4])) \
                        if before else None
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
