import IAPModel
import IAPStore

/// Decides whether a verified document belongs to this store (Documentation/Pipeline.md "Environment" and "App"):
/// the environment is checked first — other environments are kept aside, not rejected — then the app.
struct AppFilter: Sendable {
    let policy: IngestPolicy

    /// The outcome for a document of the given identity, or the failure that quarantines it.
    func outcome(environment rawEnvironment: String?, bundleId: String?, appAppleId: Int64?)
        -> Result<(outcome: DocumentOutcome, environment: String), DocumentFailure>
    {
        guard let rawEnvironment, !rawEnvironment.isEmpty else {
            return .failure(DocumentFailure(.unknownEnvironment, "The document names no environment."))
        }
        let environment = AppStoreEnvironment.normalizedName(rawEnvironment)
        if environment != policy.environment {
            return .success((.otherEnvironment, environment))
        }
        guard let bundleId, bundleId == policy.bundleId else {
            let found = bundleId.map { "bundle ID \($0)" } ?? "no bundle ID"
            return .failure(
                DocumentFailure(.wrongApp, "The document has \(found); this store is for \(policy.bundleId)."))
        }
        if environment == AppStoreEnvironment.production.rawValue, let expected = policy.appAppleId,
            let appAppleId, appAppleId != expected
        {
            return .failure(
                DocumentFailure(
                    .wrongApp, "The document is for app Apple ID \(appAppleId); this store is for \(expected)."))
        }
        return .success((.accepted, environment))
    }
}
