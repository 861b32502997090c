/// The kind of a V1 notification (`notification_type`). Unknown values are kept raw.
/// https://developer.apple.com/documentation/appstoreservernotifications/notification_type
public enum NotificationTypeV1: String, Sendable, CaseIterable {
    case initialBuy = "INITIAL_BUY"
    case cancel = "CANCEL"
    case didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
    case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
    case didFailToRenew = "DID_FAIL_TO_RENEW"
    case didRecover = "DID_RECOVER"
    case didRenew = "DID_RENEW"
    case interactiveRenewal = "INTERACTIVE_RENEWAL"
    case priceIncreaseConsent = "PRICE_INCREASE_CONSENT"
    case refund = "REFUND"
    case revoke = "REVOKE"
    case consumptionRequest = "CONSUMPTION_REQUEST"
    case renewal = "RENEWAL"
}
