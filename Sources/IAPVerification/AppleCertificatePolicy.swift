/// Apple's certificate policy for App Store signed data, beyond RFC 5280 path validation.
///
/// Mirrors `ChainVerifier.swift` in apple/app-store-server-library-swift (its `AppStoreOIDPolicy`):
/// the leaf must carry the receipt-signing marker and the intermediate the WWDR marker.
enum AppleCertificatePolicy {
    /// Marker extension on the leaf ("Mac App Store and iTunes Store Receipt Signing").
    static let leafMarkerOID = "1.2.840.113635.100.6.11.1"
    /// Marker extension on the intermediate (Apple Worldwide Developer Relations CA).
    static let intermediateMarkerOID = "1.2.840.113635.100.6.2.1"
    /// Apple sends exactly three certificates in `x5c`: leaf, intermediate, root.
    static let x5cCount = 3
    /// The only algorithm Apple signs with.
    static let algorithm = "ES256"
}
