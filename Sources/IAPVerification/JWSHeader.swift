/// The fields of a JWS protected header that verification looks at (`JWSDecodedHeader` in Apple's libraries).
///
/// Fields are optional because the header is untrusted input; a field of the wrong JSON type reads as absent.
public struct JWSHeader: Sendable, Equatable {
    /// The signature algorithm; Apple always sends `"ES256"`.
    public let alg: String?
    /// Standard-base64 DER certificates, leaf first: `[leaf, intermediate, root]`.
    public let x5c: [String]?
    /// Key identifier; absent in production, `"Apple_Xcode_Key"` in Xcode-signed data.
    public let kid: String?
    /// Token type; absent in production headers, `"JWT"` in Apple's library mocks.
    public let typ: String?

    /// Makes a header from its fields.
    public init(alg: String?, x5c: [String]?, kid: String? = nil, typ: String? = nil) {
        self.alg = alg
        self.x5c = x5c
        self.kid = kid
        self.typ = typ
    }
}
