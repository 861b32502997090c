import IAPAnalytics

/// The headline figures of one month, summed from its tables. Used by the month page (headlines, change against
/// the previous month) and by the index (trends), so both always agree.
struct MonthFigures {
    var voluntaryChurn: Int64 = 0
    var involuntaryChurn: Int64 = 0
    var otherChurn: Int64 = 0
    var churnByReason: [(reason: String, subscriptions: Int64)] = []

    var billingEpisodes: Int64 = 0
    var billingRecovered: Int64 = 0
    var billingRecoveredInGrace: Int64 = 0
    var billingExpired: Int64 = 0
    var billingPending: Int64 = 0

    var refunds: Int64 = 0
    var refundedByCurrency = CurrencyAmounts()
    var consumableRefunds: Int64 = 0
    var consumableLostProceeds = CurrencyAmounts()

    var sales: Int64 = 0
    /// The sales without a price (currency `XXX`): counted in `sales`, never in the money sums.
    var unpricedSales: Int64 = 0
    var grossByCurrency = CurrencyAmounts()
    var netByCurrency = CurrencyAmounts()
    var proceedsByCurrency = CurrencyAmounts()
    /// What Apple's financial reports say it pays for the month's covered days, by the currency it pays in.
    var appleProceedsByCurrency = CurrencyAmounts()
    /// Monthly recurring revenue at the month's end, per currency (`mrr.csv`).
    var mrrByCurrency = CurrencyAmounts()
    /// Apple's deposit for the fiscal month named like this month: Σ proceeds of the paid regions, per bank currency.
    var depositByCurrency = CurrencyAmounts()
    /// Whether a paid payment summary of the fiscal month is loaded.
    var hasPayment = false
    /// The estimate for the same days (apple_reconciliation.csv), by the sale's currency.
    var coveredEstimateByCurrency = CurrencyAmounts()
    /// Whether a loaded Apple report covers a day of the month.
    var hasAppleReport = false

    var flaggedAccounts: Int64 = 0

    /// The subscriber base (subscriptions.csv), summed over products.
    var activeStart: Int64 = 0
    var activeEnd: Int64 = 0
    var newPaid: Int64 = 0
    var trialsStarted: Int64 = 0
    var trialsEnded: Int64 = 0
    var trialsConverted: Int64 = 0
    /// The same per plan length of the month's products (``PlanLengthFigures``).
    var planLengths: [PlanLengthFigures] = []

    /// The figures of one plan length (zeros when the month has none of that length), or with `nil` of every plan
    /// together (`length` empty).
    func plan(_ length: String?) -> PlanLengthFigures {
        guard let length else {
            return PlanLengthFigures(
                length: "", activeStart: activeStart, voluntaryChurn: voluntaryChurn,
                involuntaryChurn: involuntaryChurn,
                trialsEnded: trialsEnded, trialsConverted: trialsConverted)
        }
        return planLengths.first { $0.length == length } ?? PlanLengthFigures(length: length)
    }

    /// What a page gives a rate for: each plan length where the month's products have two or more (a yearly plan churns
    /// at most once a year, so a rate over both lengths compares nothing), else `nil`, every plan together.
    var rateScopes: [String?] {
        planLengths.count > 1 ? planLengths.map(\.length) : [nil]
    }

    /// - Parameter periods: each product's period from every month (``ReportSet/productPeriods``), for
    ///   ``planLengths``.
    init(_ month: MonthReport, periods: [String: String] = [:]) {
        for row in month.rows("churn.csv") {
            let count = row.integer("subscriptions")
            switch row.text("churn_type") {
            case "voluntary": voluntaryChurn += count
            case "involuntary": involuntaryChurn += count
            default: otherChurn += count
            }
            addReason(row.text("reason"), count)
        }
        for row in month.rows("billing_retry.csv") {
            billingEpisodes += row.integer("episodes")
            billingRecovered += row.integer("recovered")
            billingRecoveredInGrace += row.integer("recovered_in_grace")
            billingExpired += row.integer("expired")
            billingPending += row.integer("pending")
        }
        for row in month.rows("refunds.csv") {
            refunds += row.integer("refunds")
            refundedByCurrency.addMoney(row.integer("refunded_gross_milli"), currency: row.text("currency"))
        }
        for row in month.rows("consumable_losses.csv") {
            consumableRefunds += row.integer("refunds")
            consumableLostProceeds.addMoney(row.integer("lost_proceeds_milli"), currency: row.text("currency"))
        }
        for row in month.rows("reconciliation.csv") {
            sales += row.integer("sales")
            if row.text("currency") == MoneyText.noCurrency { unpricedSales += row.integer("sales") }
            grossByCurrency.addMoney(row.integer("gross_milli"), currency: row.text("currency"))
            netByCurrency.addMoney(row.integer("net_milli"), currency: row.text("currency"))
            proceedsByCurrency.addMoney(row.integer("est_proceeds_milli"), currency: row.text("currency"))
        }
        for row in month.rows("mrr.csv") {
            mrrByCurrency.addMoney(row.integer("mrr_milli"), currency: row.text("currency"))
        }
        for row in month.rows("apple_payments.csv") where !row.text("proceeds_milli").isEmpty {
            hasPayment = true
            depositByCurrency.add(row.integer("proceeds_milli"), currency: row.text("bank_currency"))
        }
        for row in month.rows("apple_reconciliation.csv") {
            hasAppleReport = true
            let currency = row.text("proceeds_currency")
            if !currency.isEmpty && currency != "mixed" {
                appleProceedsByCurrency.add(row.integer("apple_proceeds_milli"), currency: currency)
            }
            coveredEstimateByCurrency.addMoney(
                row.integer("archive_est_proceeds_milli"), currency: row.text("currency"))
        }
        for row in month.rows("subscriptions.csv") {
            activeStart += row.integer("active_start")
            activeEnd += row.integer("active_end")
            newPaid += row.integer("new_paid")
            trialsStarted += row.integer("trials_started")
            trialsEnded += row.integer("trials_ended")
            trialsConverted += row.integer("trials_converted")
        }
        flaggedAccounts = Int64(month.table("flagged_accounts.csv")?.rows.count ?? 0)
        planLengths = PlanLengthFigures.of(month, periods: periods)
    }

    var totalChurn: Int64 {
        voluntaryChurn + involuntaryChurn + otherChurn
    }

    /// Share of *resolved* billing episodes (recovered or expired) that recovered, in tenths of a percent;
    /// nil while none is resolved. Pending episodes are still retrying: counting them as failures would make
    /// every recent month look like a collapse, so they are shown beside the rate instead.
    var recoveryRateTenths: Int64? {
        ChangeText.rateTenths(billingRecovered, of: billingRecovered + billingExpired)
    }

    /// `1,028 recovered, 814 expired, 0 pending`: the counts a recovery rate rests on.
    var billingOutcomes: String {
        "\(CountText.count(billingRecovered)) recovered, \(CountText.count(billingExpired)) expired, "
            + "\(CountText.count(billingPending)) pending"
    }

    /// Reasons in first-seen order (the CSV's sorted order), so charts list them the same way every run.
    private mutating func addReason(_ reason: String, _ count: Int64) {
        if let index = churnByReason.firstIndex(where: { $0.reason == reason }) {
            churnByReason[index].subscriptions += count
        } else {
            churnByReason.append((reason, count))
        }
    }
}
