/// Every reason a document can be quarantined for, with what it means and what the user should do.
/// The raw values are the codes stored in the `quarantine` table and printed by `status` and reports;
/// the README's table is generated from the same text (`iaplens reasons`).
public enum QuarantineReason: String, Sendable, CaseIterable {
    // MARK: Reading
    case unreadableFile = "unreadable_file"
    case badGzip = "bad_gzip"
    case documentTooLarge = "document_too_large"
    case badJSON = "bad_json"
    case unknownShape = "unknown_shape"
    case badField = "bad_field"
    // MARK: Signatures
    case malformedJWS = "malformed_jws"
    case badBase64 = "bad_base64"
    case unsupportedAlgorithm = "unsupported_algorithm"
    case badCertificateChain = "bad_certificate_chain"
    case untrustedChain = "untrusted_chain"
    case certificateExpired = "certificate_expired"
    case missingAppleOID = "missing_apple_oid"
    case badSignature = "bad_signature"
    // MARK: Content
    case badPayload = "bad_payload"
    case missingSignedDate = "missing_signed_date"
    case missingDocumentTime = "missing_document_time"
    case unknownEnvironment = "unknown_environment"
    case wrongApp = "wrong_app"
    case v1SecretMismatch = "v1_secret_mismatch"
    // MARK: Apple's financial reports
    case badReport = "bad_report"
    case badReportRow = "bad_report_row"
    case overlappingReport = "overlapping_report"

    /// What the code means, as a clause.
    public var meaning: String {
        switch self {
        case .unreadableFile: return "the file could not be opened or read"
        case .badGzip: return "the gzip stream is truncated or corrupt; documents before the damage were kept"
        case .documentTooLarge: return "one line is larger than the 16 MiB limit for a document"
        case .badJSON:
            return "the line is not valid JSON (syntax, invalid UTF-8, duplicate keys, nesting deeper than 64)"
        case .unknownShape:
            return "valid JSON, but none of the document shapes of Documentation/Inputs.md \"Documents\""
        case .badField:
            return
                "a known shape with a field of the wrong type or value (e.g. status not 0/1), or a price, quantity, percentage or date outside what the App Store sends"
        case .malformedJWS: return "a signed value is not a compact JWS of three segments with a JSON header"
        case .badBase64: return "a JWS segment or x5c certificate is not valid base64"
        case .unsupportedAlgorithm: return "the JWS header's alg is not ES256 (none, HS256, …)"
        case .badCertificateChain:
            return "x5c is missing, does not hold exactly three certificates, or a certificate does not parse"
        case .untrustedChain:
            return "the certificate chain does not lead to a trusted root (a forgery, or a test/sandbox chain)"
        case .certificateExpired: return "a certificate of the chain was not valid at the payload's signedDate"
        case .missingAppleOID: return "the leaf or intermediate certificate lacks Apple's marker extension"
        case .badSignature: return "the ES256 signature does not match the content (tampered or corrupted)"
        case .badPayload: return "the signed payload is not JSON or lacks a field iaplens needs (e.g. transactionId)"
        case .missingSignedDate: return "the signed payload has no signedDate, so its certificates cannot be checked"
        case .missingDocumentTime: return "a V1 body with no envelope time and no dates to take its time from"
        case .unknownEnvironment:
            return "the document does not say which environment (Production/Sandbox) it belongs to"
        case .wrongApp: return "the document belongs to another bundle ID or app Apple ID"
        case .v1SecretMismatch: return "a V1 body (unsigned) whose password is not the configured --v1-shared-secret"
        case .badReport:
            return
                "a file shaped like an Apple financial report or payment summary that cannot be believed whole: it cannot be read to its end (cut short, a row with a missing or unreadable value, rows after its closing summary), a column is missing or named twice, its period is not one of Apple's fiscal months, its amounts are out of bounds, or it holds neither rows nor a period; nothing of it was loaded"
        case .badReportRow:
            return
                "a row of an Apple financial report that an earlier version of iaplens quarantined alone, loading the rest (a report is now refused whole instead, as bad_report)"
        case .overlappingReport:
            return
                "an Apple financial report whose period overlaps a report already loaded from another file; nothing of it was loaded"
        }
    }

    /// What to do about it.
    public var remedy: String {
        switch self {
        case .unreadableFile: return "Check the file's permissions and that the disk is readable, then rerun."
        case .badGzip:
            return "Re-export or re-download the archive; rerun after replacing the file (it is read again by content)."
        case .documentTooLarge: return "Check the exporter: one JSON document per line is expected."
        case .badJSON, .unknownShape, .badField:
            return
                "Inspect the excerpt with `iaplens status --quarantine`; fix the exporter if many lines are affected."
        case .malformedJWS, .badBase64, .badPayload, .missingSignedDate:
            return "Usually archive corruption: compare with the source system's copy."
        case .unsupportedAlgorithm, .badSignature, .missingAppleOID:
            return "Treat as a forgery attempt: do not trust the content; check who can write to the archive."
        case .badCertificateChain, .untrustedChain:
            return "For test or sandbox data pass its root with --root-certificate; otherwise treat as a forgery."
        case .certificateExpired: return "Forged or mis-dated; Apple's certificates are valid at signing time."
        case .missingDocumentTime:
            return "Wrap such bodies in an envelope {\"receivedAt\": …, \"body\": …} when archiving."
        case .unknownEnvironment: return "Check the exporter; Apple always sends an environment."
        case .wrongApp:
            return "Expected when archives are shared between apps; pass the right --bundle-id / --app-apple-id."
        case .v1SecretMismatch:
            return "Treat as a forgery unless the secret was rotated; pass the secret in use when it was archived."
        case .badReport, .badReportRow:
            return
                "Download the report again from App Store Connect (Payments and Financial Reports) or with `iaplens fetch --connect-…`; the message names the column and line."
        case .overlappingReport:
            return
                "Keep one report per fiscal month: remove the other file from the inputs (the message names both), or load it into a fresh store."
        }
    }
}
