import COpenSSL
import Foundation
import Testing

@testable import IAPVerification

/// Project Wycheproof's ECDSA P-256 / SHA-256 vectors (raw `r‖s`, as a JWS carries them) through both signature
/// paths: the leaf key's precomputed table (``PrecomputedKey``, the fast path) and `EVP_PKEY_verify` (the reference).
/// Each vector's expected verdict must be what both give. Among them: tcId 115, "k*G has a large x-coordinate", a
/// valid signature whose R has x ≥ n, the branch `ConstructedSignatureTests` also builds by hand.
@Suite("Wycheproof's P-256 vectors: the table and EVP each give Wycheproof's verdict")
struct WycheproofTests {
    struct File: Decodable {
        let numberOfTests: Int
        let testGroups: [Group]
    }

    struct Group: Decodable {
        let publicKeyDer: String
        let sha: String
        let tests: [Vector]
    }

    struct Vector: Decodable {
        let tcId: Int
        let comment: String
        let msg: String
        let sig: String
        let result: String
    }

    static func load() throws -> File {
        let url = try #require(
            Bundle.module.url(forResource: "Wycheproof/ecdsa_secp256r1_sha256_p1363_test", withExtension: "json"))
        return try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        _ = SHA256(bytes, bytes.count, &digest)
        return digest
    }

    @Test("All 262 vectors: valid ones verify and invalid ones fail on both paths, and the table is really used")
    func everyVector() throws {
        let file = try Self.load()
        var checked = 0
        var large = false
        for group in file.testGroups {
            #expect(group.sha == "SHA-256")
            let der = try #require(LeafPublicKeyTests.hexBytes(group.publicKeyDer))
            let table = try #require(LeafPublicKey(subjectPublicKeyInfo: der, tableAfter: 0))
            let reference = try #require(LeafPublicKey(subjectPublicKeyInfo: der, tableAfter: .max))
            for vector in group.tests {
                let digest = Self.sha256(try #require(LeafPublicKeyTests.hexBytes(vector.msg)))
                let signature = try #require(LeafPublicKeyTests.hexBytes(vector.sig))
                let fast = table.verify(sha256Digest: digest, rawSignature: signature)
                let slow = reference.verify(sha256Digest: digest, rawSignature: signature)
                let label = "tcId \(vector.tcId) (\(vector.comment)): expected \(vector.result)"
                switch vector.result {
                case "valid":
                    #expect(fast, "table: \(label)")
                    #expect(slow, "EVP: \(label)")
                case "invalid":
                    #expect(!fast, "table: \(label)")
                    #expect(!slow, "EVP: \(label)")
                default:
                    #expect(fast == slow, "\(label): the paths disagree")
                }
                if vector.comment == "k*G has a large x-coordinate" { large = true }
                checked += 1
            }
            // Once a signature of the right length reached it, the table was built and gave the verdicts, not EVP.
            if group.tests.contains(where: { $0.sig.count == 128 }) { #expect(table.hasPrecomputedTable) }
            #expect(!reference.hasPrecomputedTable)
        }
        #expect(checked == file.numberOfTests)
        #expect(checked == 262)
        #expect(large, "the vector with x(R) ≥ n is in the file")
    }
}
