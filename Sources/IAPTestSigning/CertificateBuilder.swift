/// Assembles and signs one X.509 v3 certificate of the test PKI, byte by byte.
///
/// Built by hand rather than with `X509_sign` so the signature uses the deterministic nonce and every byte
/// depends only on the inputs. No Subject/Authority Key Identifier is required by the verifier, but both are
/// written, as Apple's certificates carry them and they let OpenSSL reject a foreign root by key, not by name.
struct CertificateBuilder {
    /// What a certificate is for; decides its extensions.
    enum Role {
        case root
        case intermediate
        case leaf
    }

    let role: Role
    let serial: [UInt8]
    let subjectCommonName: String
    let issuerCommonName: String
    let notBeforeSeconds: Int64
    let notAfterSeconds: Int64
    let subjectKey: ECSigningKey
    let issuerKey: ECSigningKey
    /// Apple's marker extension to add (nil leaves it out, to build "missing OID" chains).
    let markerOID: String?

    /// The organisation in every test name, so test certificates are recognisable in any tool.
    static let organization = "iaplens test PKI"

    /// Builds the DER certificate, signed by `issuerKey` with the issuer curve's ECDSA hash.
    func build() throws(SigningError) -> [UInt8] {
        let algorithm = DER.sequence([DER.objectIdentifier(issuerKey.curve.signatureAlgorithmOID)])
        let tbs = DER.sequence([
            DER.explicit(0, DER.integer(2)),
            DER.integer(unsigned: serial),
            algorithm,
            Self.name(commonName: issuerCommonName),
            DER.sequence([DER.time(epochSeconds: notBeforeSeconds), DER.time(epochSeconds: notAfterSeconds)]),
            Self.name(commonName: subjectCommonName),
            Self.subjectPublicKeyInfo(subjectKey),
            DER.explicit(3, DER.sequence(extensions())),
        ])
        let signature = try issuerKey.signDER(digest: issuerKey.curve.digest.hash(tbs))
        return DER.sequence([tbs, algorithm, DER.bitString(signature)])
    }

    /// The key identifier of RFC 5280 §4.2.1.2 method 1: SHA-1 of the public key bits.
    static func keyIdentifier(_ key: ECSigningKey) -> [UInt8] { Digest.sha1.hash(key.publicPoint) }

    private func extensions() -> [[UInt8]] {
        var list: [[UInt8]] = []
        switch role {
        case .root:
            list.append(Self.extensionField("2.5.29.19", critical: true, DER.sequence([DER.boolean(true)])))
            list.append(Self.extensionField("2.5.29.15", critical: true, Self.caKeyUsage))
        case .intermediate:
            let constraints = DER.sequence([DER.boolean(true), DER.integer(0)])
            list.append(Self.extensionField("2.5.29.19", critical: true, constraints))
            list.append(Self.extensionField("2.5.29.15", critical: true, Self.caKeyUsage))
        case .leaf:
            list.append(Self.extensionField("2.5.29.19", critical: true, DER.sequence([])))
            // digitalSignature only: bit 0, so 7 unused bits.
            list.append(Self.extensionField("2.5.29.15", critical: true, DER.bitString([0x80], unusedBits: 7)))
        }
        list.append(Self.extensionField("2.5.29.14", critical: false, DER.octetString(Self.keyIdentifier(subjectKey))))
        if role != .root {
            let authority = DER.sequence([DER.tlv(0x80, Self.keyIdentifier(issuerKey))])
            list.append(Self.extensionField("2.5.29.35", critical: false, authority))
        }
        if let markerOID {
            // Apple's marker extensions hold an ASN.1 NULL, exactly as in the production certificates.
            list.append(Self.extensionField(markerOID, critical: false, DER.null))
        }
        return list
    }

    /// keyCertSign and cRLSign: bits 5 and 6, so the byte is 0x06 with 1 unused bit.
    private static let caKeyUsage = DER.bitString([0x06], unusedBits: 1)

    private static func extensionField(_ oid: String, critical: Bool, _ value: [UInt8]) -> [UInt8] {
        var fields = [DER.objectIdentifier(oid)]
        if critical { fields.append(DER.boolean(true)) }
        fields.append(DER.octetString(value))
        return DER.sequence(fields)
    }

    private static func name(commonName: String) -> [UInt8] {
        DER.sequence([
            DER.set([DER.sequence([DER.objectIdentifier("2.5.4.3"), DER.utf8String(commonName)])]),
            DER.set([DER.sequence([DER.objectIdentifier("2.5.4.10"), DER.utf8String(organization)])]),
        ])
    }

    private static func subjectPublicKeyInfo(_ key: ECSigningKey) -> [UInt8] {
        DER.sequence([
            DER.sequence([
                DER.objectIdentifier("1.2.840.10045.2.1"),
                DER.objectIdentifier(key.curve.objectIdentifier),
            ]),
            DER.bitString(key.publicPoint),
        ])
    }
}
