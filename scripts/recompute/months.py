"""Which month folders the contract asks for, and months.csv's archive days."""
import datetime
from collections import defaultdict

from recompute.rules import DAY_MS, month_of, first_ms, plus_months


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
