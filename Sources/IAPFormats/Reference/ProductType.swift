/// The type of an in-app purchase, in Apple's spelling (`type` of a transaction), and its spelling in the reports:
/// the one mapping between the two. `products.csv` accepts either (``ProductCatalogRow``), the store keeps Apple's,
/// and the staging model renders its CASE from ``allCases`` (`{{ product_type_name(type) }}`).
/// https://developer.apple.com/documentation/appstoreserverapi/type
public enum ProductType: String, Sendable, CaseIterable {
    case autoRenewable = "Auto-Renewable Subscription"
    case nonConsumable = "Non-Consumable"
    case consumable = "Consumable"
    case nonRenewing = "Non-Renewing Subscription"

    /// The spelling the CSV reports use (`auto_renewable`, …).
    public var reportName: String {
        switch self {
        case .autoRenewable: return "auto_renewable"
        case .nonConsumable: return "non_consumable"
        case .consumable: return "consumable"
        case .nonRenewing: return "non_renewing"
        }
    }

    /// Reads Apple's spelling or the CSV spelling, ignoring case.
    public init?(anySpelling text: String) {
        let lowered = text.lowercased()
        for type in ProductType.allCases where type.rawValue.lowercased() == lowered || type.reportName == lowered {
            self = type
            return
        }
        return nil
    }
}
