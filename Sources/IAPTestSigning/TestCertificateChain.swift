import IAPFormats

/// A certificate chain of Apple's shape made for tests: P-384 root (self-signed, CA), P-384 intermediate (CA,
/// extension 1.2.840.113635.100.6.2.1), P-256 leaf (extension 1.2.840.113635.100.6.11.1), ecdsa-with-SHA384
/// signatures on certificates. Deterministic: the same seed gives byte-identical certificates and keys.
///
/// Never trust these certificates outside tests: the keys are derived from a public seed.
public struct TestCertificateChain: Sendable, Equatable {
    /// The self-signed root, DER.
    public let rootDER: [UInt8]
    /// The intermediate, issued by the root, DER.
    public let intermediateDER: [UInt8]
    /// The leaf, issued by the intermediate, DER; its key signs JWS.
    public let leafDER: [UInt8]
    /// The leaf's private scalar (32 bytes, big-endian).
    let leafPrivateScalar: [UInt8]

    init(rootDER: [UInt8], intermediateDER: [UInt8], leafDER: [UInt8], leafPrivateScalar: [UInt8]) {
        self.rootDER = rootDER
        self.intermediateDER = intermediateDER
        self.leafDER = leafDER
        self.leafPrivateScalar = leafPrivateScalar
    }

    /// Generates the chain for `seed`. Keys, serial numbers and signatures derive from the seed; dates come from
    /// `options` only, never from the clock.
    public static func generate(seed: String, options: Options = .init()) throws(SigningError) -> TestCertificateChain {
        let caStart = seconds(options.notBefore)
        let caEnd = seconds(options.notAfter)
        let leafStart = seconds(options.leafNotBefore ?? options.notBefore)
        let leafEnd = seconds(options.leafNotAfter ?? options.notAfter)
        guard caStart < caEnd else {
            throw .invalidValidity(notBeforeMillis: options.notBefore, notAfterMillis: options.notAfter)
        }
        guard leafStart < leafEnd else {
            throw .invalidValidity(
                notBeforeMillis: options.leafNotBefore ?? options.notBefore,
                notAfterMillis: options.leafNotAfter ?? options.notAfter
            )
        }
        let rootKey = try ECSigningKey(seed: seed, role: "root", curve: .p384)
        let intermediateKey = try ECSigningKey(seed: seed, role: "intermediate", curve: .p384)
        let leafKey = try ECSigningKey(seed: seed, role: "leaf", curve: options.leafKeyOnP384 ? .p384 : .p256)
        let prefix = options.commonNamePrefix
        let rootName = "\(prefix) Root CA"
        let intermediateName = "\(prefix) Intermediate CA"

        let root = try CertificateBuilder(
            role: .root, serial: serial(seed: seed, role: "root"),
            subjectCommonName: rootName, issuerCommonName: rootName,
            notBeforeSeconds: caStart, notAfterSeconds: caEnd,
            subjectKey: rootKey, issuerKey: rootKey, markerOID: nil
        ).build()
        let intermediate = try CertificateBuilder(
            role: .intermediate, serial: serial(seed: seed, role: "intermediate"),
            subjectCommonName: intermediateName, issuerCommonName: rootName,
            notBeforeSeconds: caStart, notAfterSeconds: caEnd,
            subjectKey: intermediateKey, issuerKey: rootKey,
            markerOID: options.includeIntermediateOID ? "1.2.840.113635.100.6.2.1" : nil
        ).build()
        let leaf = try CertificateBuilder(
            role: .leaf, serial: serial(seed: seed, role: "leaf"),
            subjectCommonName: "\(prefix) Store Receipt Signing", issuerCommonName: intermediateName,
            notBeforeSeconds: leafStart, notAfterSeconds: leafEnd,
            subjectKey: leafKey, issuerKey: intermediateKey,
            markerOID: options.includeLeafOID ? "1.2.840.113635.100.6.11.1" : nil
        ).build()
        return TestCertificateChain(
            rootDER: root, intermediateDER: intermediate, leafDER: leaf, leafPrivateScalar: leafKey.privateScalar
        )
    }

    /// The root as a PEM `CERTIFICATE` block, the form `--root-certificate` usually receives.
    public var rootPEM: String { Base64Encoding.pem(rootDER, label: "CERTIFICATE") }

    /// The `x5c` header value Apple would send: standard base64 DER of `[leaf, intermediate, root]`.
    public var x5c: [String] { [leafDER, intermediateDER, rootDER].map(Base64Encoding.standard) }

    /// The leaf's private key as a SEC1 `EC PRIVATE KEY` PEM block.
    public var leafPrivateKeyPEM: String {
        get throws(SigningError) {
            let key = try ECSigningKey(privateScalar: leafPrivateScalar, curve: .p256)
            let der = DER.sequence([
                DER.integer(1),
                DER.octetString(key.privateScalar),
                DER.explicit(0, DER.objectIdentifier(ECCurve.p256.objectIdentifier)),
                DER.explicit(1, DER.bitString(key.publicPoint)),
            ])
            return Base64Encoding.pem(der, label: "EC PRIVATE KEY")
        }
    }

    /// A positive 64-bit serial number from the seed and role.
    private static func serial(seed: String, role: String) -> [UInt8] {
        var bytes = Array(Digest.sha256.hash(Array("iaplens-test-pki/v1/serial/\(role)/\(seed)".utf8)).prefix(8))
        // Top bit clear keeps the INTEGER positive; the next bit set keeps it 8 bytes long.
        bytes[0] = (bytes[0] & 0x7F) | 0x40
        return bytes
    }

    private static func seconds(_ millis: Int64) -> Int64 {
        millis >= 0 ? millis / 1_000 : (millis - 999) / 1_000
    }
}
