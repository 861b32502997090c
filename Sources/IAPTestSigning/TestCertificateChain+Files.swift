internal import COpenSSL
import Foundation

extension TestCertificateChain {
    /// File names inside a chain directory.
    enum FileName {
        static let rootPEM = "root.pem"
        static let rootDER = "root.der"
        static let intermediateDER = "intermediate.der"
        static let leafDER = "leaf.der"
        static let leafKeyPEM = "leaf-key.pem"
    }

    /// Writes root.pem, root.der, intermediate.der, leaf.der and leaf-key.pem into `directory`, creating it.
    public func write(to directory: String) throws(SigningError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .file(path: directory, detail: error.localizedDescription)
        }
        let files: [(String, [UInt8])] = [
            (FileName.rootPEM, Array(rootPEM.utf8)),
            (FileName.rootDER, rootDER),
            (FileName.intermediateDER, intermediateDER),
            (FileName.leafDER, leafDER),
            (FileName.leafKeyPEM, Array(try leafPrivateKeyPEM.utf8)),
        ]
        for (name, bytes) in files {
            let path = (directory as NSString).appendingPathComponent(name)
            do {
                try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw .file(path: path, detail: error.localizedDescription)
            }
        }
    }

    /// Reads a chain written by `write(to:)`. The leaf key may be SEC1 or PKCS#8 PEM; it must be the P-256 key
    /// of leaf.der.
    public static func load(from directory: String) throws(SigningError) -> TestCertificateChain {
        let root = try readCertificate(directory, FileName.rootDER)
        let intermediate = try readCertificate(directory, FileName.intermediateDER)
        let leaf = try readCertificate(directory, FileName.leafDER)
        let keyPath = (directory as NSString).appendingPathComponent(FileName.leafKeyPEM)
        let scalar = try readPrivateScalar(keyPath)
        let key = try ECSigningKey(privateScalar: scalar, curve: .p256)
        guard try publicPoint(ofCertificate: leaf) == key.publicPoint else {
            throw .malformedFile(path: keyPath, detail: "the key does not belong to \(FileName.leafDER)")
        }
        return TestCertificateChain(
            rootDER: root, intermediateDER: intermediate, leafDER: leaf, leafPrivateScalar: key.privateScalar
        )
    }

    private static func readFile(_ path: String) throws(SigningError) -> [UInt8] {
        do {
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw .file(path: path, detail: error.localizedDescription)
        }
    }

    private static func readCertificate(_ directory: String, _ name: String) throws(SigningError) -> [UInt8] {
        let path = (directory as NSString).appendingPathComponent(name)
        let der = try readFile(path)
        let parses = der.withUnsafeBufferPointer { buffer -> Bool in
            var cursor = buffer.baseAddress
            guard let cert = d2i_X509(nil, &cursor, buffer.count) else { return false }
            X509_free(cert)
            return true
        }
        guard parses else {
            ERR_clear_error()
            throw .malformedFile(path: path, detail: "not a DER X.509 certificate")
        }
        return der
    }

    private static func readPrivateScalar(_ path: String) throws(SigningError) -> [UInt8] {
        let pem = try readFile(path)
        let scalar: [UInt8]? = pem.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            guard let key = PEM_read_bio_PrivateKey(bio, nil, nil, nil) else { return nil }
            defer { EVP_PKEY_free(key) }
            // "priv" is OSSL_PKEY_PARAM_PRIV_KEY (core_names.h, not in the shim).
            var number: OpaquePointer?
            guard isP256(key), EVP_PKEY_get_bn_param(key, "priv", &number) == 1, let number else {
                return nil
            }
            defer { BN_clear_free(number) }
            var bytes = [UInt8](repeating: 0, count: 32)
            return BN_bn2binpad(number, &bytes, 32) == 32 ? bytes : nil
        }
        guard let scalar else {
            ERR_clear_error()
            throw .malformedFile(path: path, detail: "not a PEM EC P-256 private key")
        }
        return scalar
    }

    private static func publicPoint(ofCertificate der: [UInt8]) throws(SigningError) -> [UInt8] {
        let point: [UInt8]? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            guard let cert = d2i_X509(nil, &cursor, buffer.count) else { return nil }
            defer { X509_free(cert) }
            guard let key = X509_get0_pubkey(cert), isP256(key) else { return nil }
            // "encoded-pub-key" is OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY (core_names.h).
            var bytes = [UInt8](repeating: 0, count: 65)
            var length = 0
            guard EVP_PKEY_get_octet_string_param(key, "encoded-pub-key", &bytes, 65, &length) == 1
            else { return nil }
            return Array(bytes.prefix(length))
        }
        guard let point else {
            ERR_clear_error()
            throw .malformedFile(path: FileName.leafDER, detail: "the leaf's key is not an EC P-256 key")
        }
        return point
    }

    private static func isP256(_ key: OpaquePointer) -> Bool {
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC,
            EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1
        else { return false }
        return String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) == "prime256v1"
    }
}
