/// Why a paid subscription ended, as `churn.csv` spells it, and the one mapping between it, Apple's
/// `expirationIntent` and Apple's `EXPIRED` subtypes (Documentation/Reports.md "Churn"). The SQL models render
/// their `case` expressions from here (`{{ churn_reason_of_intent(…) }}` and its siblings in ``SQLTemplate``).
public enum ChurnReason: String, Sendable, CaseIterable {
    case customerCanceled = "customer_canceled"
    case priceIncreaseDeclined = "price_increase_declined"
    case billingError = "billing_error"
    case productUnavailable = "product_unavailable"
    case refunded
    case unknown

    /// Voluntary (the customer chose to leave), involuntary (billing), or other.
    public var churnType: ChurnType {
        switch self {
        case .customerCanceled, .priceIncreaseDeclined, .refunded: return .voluntary
        case .billingError: return .involuntary
        case .productUnavailable, .unknown: return .other
        }
    }

    /// Apple's `expirationIntent` for this reason: 1 customer canceled, 2 billing error, 3 declined a price
    /// increase, 4 product not for sale, 5 other; nil for a refund, which is no expiration.
    /// https://developer.apple.com/documentation/appstoreserverapi/expirationintent
    public var expirationIntent: Int64? {
        switch self {
        case .customerCanceled: return 1
        case .billingError: return 2
        case .priceIncreaseDeclined: return 3
        case .productUnavailable: return 4
        case .unknown: return 5
        case .refunded: return nil
        }
    }

    /// The reason an `expirationIntent` names; `unknown` for 5 and any value Apple may add.
    public init(expirationIntent: Int64) {
        self = Self.allCases.first { $0.expirationIntent == expirationIntent && $0 != .unknown } ?? .unknown
    }

    /// The `EXPIRED` notification subtype that names this reason, if one does.
    public var expiredSubtype: String? {
        switch self {
        case .customerCanceled: return "VOLUNTARY"
        case .priceIncreaseDeclined: return "PRICE_INCREASE"
        case .billingError: return "BILLING_RETRY"
        case .productUnavailable: return "PRODUCT_NOT_FOR_SALE"
        case .refunded, .unknown: return nil
        }
    }

    /// The reason in a reader's words.
    public var words: String {
        switch self {
        case .customerCanceled: return "customer canceled"
        case .priceIncreaseDeclined: return "declined a price increase"
        case .billingError: return "billing error"
        case .productUnavailable: return "product not for sale"
        case .refunded: return "refunded"
        case .unknown: return "unknown"
        }
    }
}

/// `churn_type` of `churn.csv`.
public enum ChurnType: String, Sendable, CaseIterable {
    case voluntary
    case involuntary
    case other
}
