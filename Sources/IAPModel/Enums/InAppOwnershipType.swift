/// Whether the account bought the item or has it through Family Sharing.
/// https://developer.apple.com/documentation/appstoreserverapi/inappownershiptype
public enum InAppOwnershipType: String, Sendable, CaseIterable {
    case purchased = "PURCHASED"
    case familyShared = "FAMILY_SHARED"
}
