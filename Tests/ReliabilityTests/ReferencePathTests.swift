import Foundation
import IAPFormats
import IAPTestSupport
import Testing

/// The whole pipeline with every fast path off (`IAPLENS_REFERENCE=all`, ``FastPath``) writes the reports the fast
/// paths write, byte for byte: the committed sample reports. The sample checks 2,258 signatures, so the leaf key's
/// table (built after 1,000) gives verdicts on the fast run; its JWS are kilobytes, so the AVX2 kernels run; every
/// notification line and payload is Apple's flat shape, so they are read in place; and ingest binds its text in place.
/// Each fast path is also held to its reference on its own, on constructed inputs: `LeafPublicKeyTests`,
/// `WycheproofTests`, `ConstructedSignatureTests`, `Base64DecodingTests`, `PlainASCIITests`,
/// `FlatJSONObjectTests` and `BoundStatementTests`.
@Suite struct ReferencePathTests {
    static func sampleRun(reports: String, database: String, environment: [String: String]) throws -> CLI.Result {
        let sample = CLI.repositoryRoot + "/data/sample/archive"
        return try CLI.run(
            ["run", "--quiet"]
                + ["notifications", "history", "refunds", "orders", "finance"].flatMap {
                    ["--input", sample + "/" + $0]
                }
                + [
                    "--database", database, "--reports", reports, "--bundle-id", "com.example.iaplens.demo",
                    "--app-apple-id", "1234567890", "--root-certificate", sample + "/certs/root.pem",
                    "--products", sample + "/products.csv", "--accounts", sample + "/accounts.csv",
                    "--reviews", sample + "/reviews.csv",
                ],
            environment: environment)
    }

    @Test func everyReferencePathWritesTheCommittedSampleReports() throws {
        let root = NSTemporaryDirectory() + "iaplens-reference-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let result = try Self.sampleRun(
            reports: root + "/reports", database: root + "/store.sqlite", environment: ["IAPLENS_REFERENCE": "all"])
        #expect(result.status == 0, "\(result.stderr.suffix(500))")
        let reference = Tree.files(root + "/reports")
        #expect(reference.count > 200)
        let committed = Tree.files(CLI.repositoryRoot + "/reports")
        #expect(Tree.difference(committed, reference).isEmpty, "\(Tree.difference(committed, reference))")
    }

    @Test func aNameThatIsNoFastPathStopsTheCommandWithTheNames() throws {
        let result = try CLI.run(
            ["status", "--database", "/nonexistent.sqlite"], environment: ["IAPLENS_REFERENCE": "leaf-key-tabel"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("\"leaf-key-tabel\", which is not a fast path"), "\(result.stderr)")
        #expect(result.stderr.contains(FastPath.leafKeyTable.rawValue))
    }

    @Test func theSwitchParsesAllAndLists() throws {
        #expect(try FastPath.enabled(byReference: "") == Set(FastPath.allCases))
        #expect(try FastPath.enabled(byReference: "all").isEmpty)
        #expect(
            try FastPath.enabled(byReference: " leaf-key-table , vector-text")
                == Set(FastPath.allCases).subtracting([.leafKeyTable, .vectorText]))
        #expect(throws: UnknownFastPath.self) { try FastPath.enabled(byReference: "signature-reuse") }
        #expect(throws: UnknownFastPath.self) { try FastPath.enabled(byReference: "everything") }
    }
}
