import IAPAnalytics

/// Hand-built report sets for the writer and renderer tests.
enum Fixtures {
    /// 2026-10-01T00:00:00Z in Unix ms.
    static let october1: Int64 = 1_790_812_800_000
    static let day: Int64 = 86_400_000

    static func table(_ name: String, _ columns: [String], _ rows: [[ReportValue]] = []) -> ReportTable {
        ReportTable(name: name, columns: columns, rows: rows)
    }

    /// All eight tables of a month, empty unless given.
    static func tables(_ given: [ReportTable]) -> [ReportTable] {
        ReportColumns.files.map { file in
            given.first { $0.name == file.name } ?? ReportTable(name: file.name, columns: file.columns)
        }
    }

    static func september() -> MonthReport {
        MonthReport(
            month: "2026-09",
            tables: tables([
                table(
                    "churn.csv", ReportColumns.churn,
                    [
                        [
                            .text("2026-09"), .text("com.example.gold"), .text("involuntary"), .text("billing_error"),
                            .integer(2),
                        ],
                        [
                            .text("2026-09"), .text("com.example.gold"), .text("voluntary"), .text("customer_canceled"),
                            .integer(8),
                        ],
                    ]),
                table(
                    "billing_retry.csv", ReportColumns.billingRetry,
                    [
                        [
                            .text("2026-09"), .text("com.example.gold"), .integer(4), .integer(2), .integer(1),
                            .integer(2), .integer(0),
                        ]
                    ]),
                table(
                    "refunds.csv", ReportColumns.refunds,
                    [
                        [
                            .text("2026-09"), .text("consumable"), .text("com.example.coins"), .text("USD"),
                            .integer(4), .integer(3_960), .integer(4), .integer(0), .integer(0),
                        ]
                    ]),
                table(
                    "consumable_losses.csv", ReportColumns.consumableLosses,
                    [
                        [
                            .text("2026-09"), .text("com.example.coins"), .text("USD"), .integer(4), .integer(3_960),
                            .integer(2_772), .integer(1), .integer(0), .integer(0),
                        ]
                    ]),
                table(
                    "reconciliation.csv", ReportColumns.reconciliation,
                    [
                        [
                            .text("2026-09"), .text("USD"), .text("auto_renewable"), .integer(100), .integer(999_000),
                            .integer(0), .integer(0), .integer(999_000), .integer(699_300), .integer(0), .integer(0),
                            .integer(0),
                        ]
                    ]),
            ]),
            flaggedTimelines: [], isEmpty: false)
    }

    /// October, with hostile IDs, a flagged account and more churn than September.
    static func october(productId: String = "com.example.gold", accountId: String = "acct|7") -> MonthReport {
        MonthReport(
            month: "2026-10",
            tables: tables([
                table(
                    "churn.csv", ReportColumns.churn,
                    [
                        [
                            .text("2026-10"), .text(productId), .text("involuntary"), .text("billing_error"),
                            .integer(3),
                        ],
                        [
                            .text("2026-10"), .text(productId), .text("voluntary"), .text("customer_canceled"),
                            .integer(10),
                        ],
                        [.text("2026-10"), .text(productId), .text("voluntary"), .text("refunded"), .integer(1)],
                        [.text("2026-10"), .text("com.example.silver"), .text("other"), .text("unknown"), .integer(1)],
                    ]),
                table(
                    "expiration_intents.csv", ReportColumns.expirationIntents,
                    [
                        [.text("2026-10"), .text(productId), .integer(1), .integer(10)],
                        [.text("2026-10"), .text(productId), .integer(2), .integer(3)],
                    ]),
                table(
                    "billing_retry.csv", ReportColumns.billingRetry,
                    [
                        [
                            .text("2026-10"), .text(productId), .integer(5), .integer(2), .integer(1), .integer(3),
                            .integer(0),
                        ]
                    ]),
                table(
                    "refunds.csv", ReportColumns.refunds,
                    [
                        [
                            .text("2026-10"), .text("consumable"), .text("com.example.coins"), .text("USD"),
                            .integer(5), .integer(4_950), .integer(3), .integer(2), .integer(0),
                        ]
                    ]),
                table(
                    "consumable_losses.csv", ReportColumns.consumableLosses,
                    [
                        [
                            .text("2026-10"), .text("com.example.coins"), .text("USD"), .integer(5), .integer(4_950),
                            .integer(3_465), .integer(2), .integer(1), .integer(0),
                        ]
                    ]),
                table(
                    "flagged_accounts.csv", ReportColumns.flaggedAccounts,
                    [
                        [
                            .text(accountId), .text("consumable_refund_burst;repeat_refunds"), .integer(3), .integer(3),
                            .integer(1), .integer(4), .integer(3),
                            .text("2026-10-02T10:00:00Z"), .text("2026-10-20T08:30:00Z"), .text("t1;t2;t3"),
                            .text("2026-10"),
                            .text("new"), .text("2026-10"), .integer(2_970), .text("USD"), .text(""),
                        ]
                    ]),
                table(
                    "reconciliation.csv", ReportColumns.reconciliation,
                    [
                        [
                            .text("2026-10"), .text("USD"), .text("auto_renewable"), .integer(110), .integer(1_098_900),
                            .integer(0), .integer(0), .integer(1_098_900), .integer(769_230), .integer(0), .integer(0),
                            .integer(0),
                        ],
                        [
                            .text("2026-10"), .text("USD"), .text("consumable"), .integer(20), .integer(19_800),
                            .integer(5), .integer(4_950), .integer(14_850), .integer(10_395), .integer(2),
                            .integer(1_980), .integer(0),
                        ],
                    ]),
                table(
                    "order_lookups.csv", ReportColumns.orderLookups,
                    [
                        [
                            .text("2026-10"), .text("L1"), .text("MK5TTTVWJH"), .text("valid"), .integer(2),
                            .text("t1;t9"), .integer(1), .text(accountId), .empty,
                        ]
                    ]),
            ]),
            flaggedTimelines: [
                FlaggedAccountTimeline(
                    accountId: accountId,
                    events: [
                        TimelineEvent(
                            time: october1 - 20 * day, kind: "purchase", transactionId: "t1",
                            productId: "com.example.coins", amountMilli: 990, currency: "USD"),
                        TimelineEvent(
                            time: october1 + day + 36_000_000, kind: "refund", transactionId: "t1",
                            productId: "com.example.coins", amountMilli: 990, currency: "USD"),
                        TimelineEvent(
                            time: october1 + 5 * day, kind: "consumption_request", transactionId: "t2",
                            productId: "com.example.coins", amountMilli: nil, currency: "USD"),
                    ])
            ],
            isEmpty: false)
    }

    static func emptyNovember() -> MonthReport {
        MonthReport(month: "2026-11", tables: tables([]), flaggedTimelines: [], isEmpty: true)
    }

    static func set(
        months: [MonthReport]? = nil, unverified: Int = 0, notes: [String] = []
    ) -> ReportSet {
        ReportSet(
            asOf: october1 + 30 * day + 3_600_000, environment: "Production", bundleId: "com.example.app",
            smallBusiness: false, months: months ?? [september(), october()],
            dataQuality: DataQualitySummary(
                filesRead: 3, documentsRead: 120, accepted: 110, duplicates: 4,
                quarantinedByReason: [
                    ReasonCount(label: "bad_signature", count: 2), ReasonCount(label: "wrong_app", count: 1),
                ],
                otherEnvironments: [ReasonCount(label: "Sandbox", count: 3)], testNotifications: 1,
                unverifiedDocuments: unverified, unpricedTransactions: 2, unlinkedTransactions: 1,
                productCatalogRows: 4, accountMappingRows: nil),
            notes: notes)
    }
}
