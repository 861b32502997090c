extension TestCertificateChain {
    /// Validity and policy knobs for a generated chain; every field has a default.
    public struct Options: Sendable, Equatable {
        /// Start of validity of the root and intermediate (and of the leaf unless `leafNotBefore` is set), in
        /// milliseconds since 1970. Default 2015-01-01T00:00:00Z.
        public var notBefore: Int64
        /// End of validity of the root and intermediate (and of the leaf unless `leafNotAfter` is set), in
        /// milliseconds since 1970. Default 2045-01-01T00:00:00Z.
        public var notAfter: Int64
        /// Start of the leaf's validity, to build "not yet valid at signedDate" chains.
        public var leafNotBefore: Int64?
        /// End of the leaf's validity, to build "expired at signedDate" chains.
        public var leafNotAfter: Int64?
        /// Whether the leaf carries Apple's receipt-signing extension 1.2.840.113635.100.6.11.1.
        public var includeLeafOID: Bool
        /// Whether the intermediate carries Apple's WWDR extension 1.2.840.113635.100.6.2.1.
        public var includeIntermediateOID: Bool
        /// Start of every common name, e.g. "iaplens test Root CA".
        public var commonNamePrefix: String
        /// Whether the leaf's key is on P-384 instead of P-256: a chain whose leaf cannot sign ES256, which the
        /// verifier refuses whatever the signature (such a chain's leaf signs nothing here).
        public var leafKeyOnP384: Bool

        /// 2015-01-01T00:00:00Z in milliseconds.
        public static let defaultNotBefore: Int64 = 1_420_070_400_000
        /// 2045-01-01T00:00:00Z in milliseconds.
        public static let defaultNotAfter: Int64 = 2_366_841_600_000

        /// Makes options; with no arguments, a chain valid 2015–2045 with both Apple OIDs.
        public init(
            notBefore: Int64 = Options.defaultNotBefore,
            notAfter: Int64 = Options.defaultNotAfter,
            leafNotBefore: Int64? = nil,
            leafNotAfter: Int64? = nil,
            includeLeafOID: Bool = true,
            includeIntermediateOID: Bool = true,
            commonNamePrefix: String = "iaplens test",
            leafKeyOnP384: Bool = false
        ) {
            self.notBefore = notBefore
            self.notAfter = notAfter
            self.leafNotBefore = leafNotBefore
            self.leafNotAfter = leafNotAfter
            self.includeLeafOID = includeLeafOID
            self.includeIntermediateOID = includeIntermediateOID
            self.commonNamePrefix = commonNamePrefix
            self.leafKeyOnP384 = leafKeyOnP384
        }
    }
}
