/// Why a subscription expired, as Apple reports it in renewal info (V2) or `expiration_intent` (V1).
/// https://developer.apple.com/documentation/appstoreserverapi/expirationintent
public enum ExpirationIntent: Int64, Sendable, CaseIterable {
    case customerCancelled = 1
    case billingError = 2
    case customerDidNotConsentToPriceIncrease = 3
    case productNotAvailable = 4
    case other = 5
}
