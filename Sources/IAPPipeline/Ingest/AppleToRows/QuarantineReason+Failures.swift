import IAPFormats
import IAPStore
import IAPVerification

/// The reading and signature layers name their failures in their own enums; the store keeps every code in
/// ``QuarantineReason``. These conversions are exhaustive switches, not a lookup by raw value with a fallback: a new
/// failure case does not compile until it is given its quarantine reason, so it can never silently become another.
extension QuarantineReason {
    /// The quarantine reason of a reading failure.
    init(_ reason: FormatFailureReason) {
        switch reason {
        case .unreadableFile: self = .unreadableFile
        case .badGzip: self = .badGzip
        case .documentTooLarge: self = .documentTooLarge
        case .badJSON: self = .badJSON
        case .unknownShape: self = .unknownShape
        case .badField: self = .badField
        }
    }

    /// The quarantine reason of a signature failure.
    init(_ reason: JWSFailureReason) {
        switch reason {
        case .malformedJWS: self = .malformedJWS
        case .badBase64: self = .badBase64
        case .unsupportedAlgorithm: self = .unsupportedAlgorithm
        case .badCertificateChain: self = .badCertificateChain
        case .untrustedChain: self = .untrustedChain
        case .certificateExpired: self = .certificateExpired
        case .missingAppleOID: self = .missingAppleOID
        case .badSignature: self = .badSignature
        }
    }
}
