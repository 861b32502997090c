import IAPAnalytics
import IAPFormats
import IAPStore

/// The words a reader sees for the codes in the CSV files. Unknown codes are shown as they are (escaped by the
/// caller), so a new code from analytics is visible rather than hidden.
enum Vocabulary {
    /// A churn reason code of `churn.csv`.
    static func churnReason(_ code: String) -> String {
        ChurnReason(rawValue: code)?.words ?? code
    }

    /// Apple's expiration intent 1–5, with the churn reason it maps to (``ChurnReason``).
    static func expirationIntent(_ code: String) -> String {
        guard let intent = Int64(code), (1...5).contains(intent) else { return code }
        let reason = ChurnReason(expirationIntent: intent)
        return "\(intent) · " + (reason == .unknown ? "other or unknown" : reason.words)
    }

    /// A status of `apple_reconciliation.csv`.
    static func appleStatus(_ code: String) -> String {
        switch code {
        case "match": "match"
        case "archive_short": "archive short"
        case "archive_over": "archive over"
        case "both": "short and over"
        default: code
        }
    }

    /// A product type of the CSV files.
    static func productType(_ code: String) -> String {
        ProductType.allCases.contains { $0.reportName == code } ? String(code.map { $0 == "_" ? "-" : $0 }) : code
    }

    /// A flagging rule of `flagged_accounts.csv`, in words, with the thresholds it ran with.
    static func flagRule(_ code: String, _ rules: FlagThresholds) -> String {
        let burstDays =
            rules.burstWindowHours % 24 == 0 ? "\(rules.burstWindowHours / 24) days" : "\(rules.burstWindowHours) hours"
        switch code {
        case "repeat_refunds":
            return "repeat refunds: \(rules.repeatRefunds) or more refunds in the \(rules.windowDays) days to month end"
        case "consumable_refund_burst":
            return
                "consumable refund burst: \(rules.burstRefunds) or more consumable refunds within \(burstDays) of each other"
        case "high_refund_rate":
            return "high refund rate: at least \(rules.highRateRefunds) lifetime refunds, and refunds at least "
                + "\(rules.highRatePercent) % of lifetime purchases; stays flagged in later months while that holds"
        default: return code
        }
    }

    /// An event kind of a flagged account's timeline.
    static func timelineEvent(_ kind: String) -> String {
        switch kind {
        case "purchase": "purchase"
        case "refund": "refund"
        case "refund_reversed": "refund reversed"
        case "refund_declined": "refund declined"
        case "consumption_request": "consumption request"
        case "decision": "review decision"
        default: kind
        }
    }

    /// What a quarantine reason code means, in one clause; nil for a code this version does not know.
    static func quarantineReason(_ code: String) -> String? {
        QuarantineReason(rawValue: code)?.meaning
    }
}

extension Vocabulary {
    /// An answer of `consumption_requests.csv`.
    static func consumptionAnswer(_ code: String) -> String {
        if let result = ConsumptionAnswerResult(rawValue: code) {
            switch result {
            case .answered: return "answered"
            case .refused: return "refused by Apple"
            case .skippedNoFacts: return "skipped: no facts"
            case .skippedNoConsent: return "skipped: no consent"
            case .inDoubt, .sending: return "in doubt: sent, no answer recorded"
            }
        }
        switch ConsumptionRequestOutcome(rawValue: code) {
        case .decidedBeforeAnswer: return "decided before an answer"
        case .answeredLate: return "answered late (after \(BusinessRules.consumptionAnswerWindowHours) hours)"
        case .unverified: return "not answered: unverified copy"
        case .missed: return "missed"
        case .pending: return "pending"
        case nil: return code
        }
    }

    /// Apple's `consumptionRequestReason`: the customer's own stated reason for a refund request.
    static func consumptionRequestReason(_ code: String) -> String {
        switch code {
        case "UNINTENDED_PURCHASE": "did not mean to buy it"
        case "FULFILLMENT_ISSUE": "did not receive it"
        case "UNSATISFIED_WITH_PURCHASE": "not satisfied with it"
        case "LEGAL": "a legal reason"
        case "OTHER": "another reason"
        case "": "no reason given"
        default: code
        }
    }

    /// Apple's `revocationReason` of a refund.
    static func revocationReason(_ code: String) -> String {
        switch code {
        case "0": "another reason"
        case "1": "an issue with the app"
        case "": ""
        default: "reason \(code)"
        }
    }
}
