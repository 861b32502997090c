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

The rules live in scripts/recompute/: rules.py (constants and months), store.py (transactions, the base, churn,
billing episodes, flags), apple.py (Apple's books and payments), months.py (the month folders, months.csv); this file
assembles the files and compares them.

Usage: scripts/recompute-reports.py STORE.sqlite REPORTS_FOLDER [--apple-time-zone ZONE]
(the zone that analyze used for Apple's days, America/Los_Angeles unless --apple-time-zone was given to it)
A folder written with `report --month` holds only the months asked for: run it on one written without.
Exit status 0 when every file agrees, 1 when a cell differs (the first 30 are printed).
"""
import csv
import os
import sys
import zoneinfo
from collections import defaultdict

from recompute.rules import DAY_MS, MONTHLY_SHARE, CHURN_TYPE_COLUMNS, month_of, first_ms, plus_months
from recompute.store import Store, billing_episodes, flagged_accounts
from recompute.apple import apple_payments, covered_days, apple_reconciliation
from recompute.months import months_written, archive_days


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
