import Foundation
import GRDB
import IAPFormats
import IAPPipeline
import IAPStore
import IAPTestSigning
import IAPTestSupport
import Testing

/// A corpus of malformed and malicious documents: each is quarantined with the right reason, none
/// crashes the run, none changes a figure. One file per case so each case's reasons can be checked on its own.
@Suite struct HostileInputTests {
    struct Case {
        let name: String
        let bytes: [UInt8]
        /// The quarantine reasons of the file, sorted (one per document or page entry).
        let expected: [String]
    }

    static func lines(_ lines: [String]) -> [UInt8] { Array(lines.map { $0 + "\n" }.joined().utf8) }

    /// The corpus. `realLines` are lines of the archive itself (re-deliveries: harmless if read again).
    static func corpus(realLines: [String]) throws -> [Case] {
        let app = Hostile.app
        var cases: [Case] = []
        func add(_ name: String, _ expected: [String], lines text: [String]) {
            cases.append(Case(name: name, bytes: lines(text), expected: expected.sorted()))
        }
        func add(_ name: String, _ expected: [String], bytes: [UInt8]) {
            cases.append(Case(name: name, bytes: bytes, expected: expected.sorted()))
        }
        let good = try Hostile.saleNotification("would-be-sale")
        let goodJWS = try Hostile.sign(good)
        let parts = goodJWS.split(separator: ".").map(String.init)
        let chain = TestChains.trusted.x5c

        // MARK: gzip
        let realGzip = Gzip.compress(Array(realLines.map { $0 + "\n" }.joined().utf8)) ?? []
        add("gzip-truncated.jsonl.gz", ["bad_gzip"], bytes: Array(realGzip.prefix(realGzip.count * 2 / 3)))
        add(
            "gzip-bad-crc.jsonl.gz", ["bad_gzip"],
            bytes: Array(realGzip.dropLast(8)) + [0xde, 0xad, 0xbe, 0xef] + Array(realGzip.suffix(4)))
        var random = SeededRandom(seed: 7)
        add(
            "gzip-garbage.jsonl.gz", ["bad_gzip"],
            bytes: [0x1f, 0x8b, 0x08, 0x00] + (0..<600).map { _ in UInt8.random(in: 0...255, using: &random) })
        add("gzip-not-gzip.jsonl.gz", ["bad_gzip"], bytes: Array("{\"signedPayload\": \"x.y.z\"}\n".utf8))

        // MARK: JSON
        let invalidUTF8: [UInt8] =
            Array("{\"signedPayload\":\"".utf8) + [0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80] + Array("\"}\n".utf8)
        add("json-invalid-utf8.jsonl", ["bad_json"], bytes: invalidUTF8)
        add(
            "json-deep-nesting.jsonl", ["bad_json", "bad_json", "bad_json"],
            lines: [
                String(repeating: "[", count: 100_000),
                String(repeating: "{\"a\":", count: 10_000) + "1" + String(repeating: "}", count: 10_000),
                "{\"receivedAt\":1,\"body\":" + String(repeating: "{\"x\":", count: 70) + "{}"
                    + String(repeating: "}", count: 70) + "}",
            ])
        add(
            "json-duplicate-keys.jsonl", ["bad_json", "bad_json"],
            lines: [
                "{\"signedPayload\":\"\(goodJWS)\",\"signedPayload\":\"a.b.c\"}",
                "{\"receivedAt\":1647345600000,\"receivedAt\":1,\"body\":{\"signedPayload\":\"\(goodJWS)\"}}",
            ])
        add(
            "json-huge-numbers.jsonl", ["bad_json", "bad_field", "bad_field", "bad_field"],
            lines: [
                "{\"signedPayload\":\"\(goodJWS)\",\"n\":" + String(repeating: "9", count: 100_000) + "}",
                "{\"signedPayload\":1e999999999}",
                "{\"receivedAt\":1e400,\"body\":{\"signedPayload\":\"\(goodJWS)\"}}",
                "{\"receivedAt\":-99999999999999999999999,\"body\":{\"signedPayload\":\"\(goodJWS)\"}}",
            ])
        add(
            "json-huge-strings.jsonl", ["document_too_large", "malformed_jws"],
            lines: [
                "{\"signedPayload\":\"" + String(repeating: "A", count: 17 << 20) + "\"}",
                "{\"signedPayload\":\"" + String(repeating: "A", count: 1 << 20) + "\"}",
            ])
        // A single line larger than the 16 MiB document limit (compressed, so the repository stays small).
        let huge =
            Array("{\"signedPayload\":\"".utf8) + [UInt8](repeating: UInt8(ascii: "A"), count: (16 << 20) + 10)
            + Array("\"}\n".utf8)
        add("json-too-large.jsonl.gz", ["document_too_large"], bytes: Gzip.compress(huge, level: 1) ?? [])
        add(
            "json-wrong-types.jsonl",
            [
                "bad_field", "bad_field", "bad_field", "bad_field", "bad_field", "unknown_shape", "unknown_shape",
                "unknown_shape",
            ],
            lines: [
                "{\"signedPayload\":123}",
                "{\"signedPayload\":null}",
                "{\"notificationHistory\":\"x\"}",
                "{\"status\":\"0\",\"signedTransactions\":[]}",
                "{\"signedTransactions\":{\"a\":1},\"revision\":\"r\",\"hasMore\":false}",
                "[]",
                "\"just a string\"",
                "{\"receivedAt\":1647345600000,\"body\":{\"receivedAt\":1,\"body\":{\"signedPayload\":\"\(goodJWS)\"}}}",
            ])

        // MARK: JWS structure
        // Three segments with an empty payload is a compact JWS whose payload is not JSON: bad_payload.
        add(
            "jws-parts.jsonl", ["malformed_jws", "malformed_jws", "malformed_jws", "bad_payload"],
            lines: [
                Hostile.body(parts[0] + "." + parts[1]),
                Hostile.body(goodJWS + "." + parts[2]),
                Hostile.body(""),
                Hostile.body(parts[0] + ".." + parts[2]),
            ])
        add(
            "jws-bad-base64.jsonl", ["bad_base64", "bad_base64", "bad_base64", "bad_base64"],
            lines: [
                Hostile.body("!!!!." + parts[1] + "." + parts[2]),
                Hostile.body(parts[0] + ".%%%%." + parts[2]),
                Hostile.body(parts[0] + "." + parts[1] + ".@@@@"),
                Hostile.body(
                    try Hostile.sign(good, header: JWSHeaderOverride(x5c: ["***not base64***", chain[1], chain[2]]))),
            ])
        add(
            "jws-header-not-json.jsonl", ["malformed_jws", "malformed_jws"],
            lines: [
                Hostile.body(Hostile.base64url("not json") + "." + parts[1] + "." + parts[2]),
                Hostile.body(try Hostile.sign(good, header: JWSHeaderOverride(rawHeader: "[\"ES256\"]"))),
            ])

        // MARK: certificates
        add(
            "x5c-count.jsonl",
            ["bad_certificate_chain", "bad_certificate_chain", "bad_certificate_chain", "bad_certificate_chain"],
            lines: [
                Hostile.body(try Hostile.sign(good, header: JWSHeaderOverride(x5c: Array(chain.prefix(2))))),
                Hostile.body(try Hostile.sign(good, header: JWSHeaderOverride(x5c: chain + [chain[2]]))),
                Hostile.body(try Hostile.sign(good, header: JWSHeaderOverride(x5c: []))),
                Hostile.body(try Hostile.sign(good, header: JWSHeaderOverride(omitX5C: true))),
            ])
        add(
            "x5c-junk.jsonl", ["bad_certificate_chain", "bad_certificate_chain", "untrusted_chain"],
            lines: [
                Hostile.body(try Hostile.sign(good, header: JWSHeaderOverride(x5c: ["AAAA", "AAAA", "AAAA"]))),
                Hostile.body(
                    try Hostile.sign(
                        good,
                        header: JWSHeaderOverride(x5c: [
                            chain[0], Data("junk certificate".utf8).base64EncodedString(), chain[2],
                        ]))),
                Hostile.body(try Hostile.sign(good, header: JWSHeaderOverride(x5c: [chain[0], chain[2], chain[1]]))),
            ])
        add(
            "alg.jsonl",
            [
                "unsupported_algorithm", "unsupported_algorithm", "unsupported_algorithm", "unsupported_algorithm",
                "unsupported_algorithm",
            ],
            lines: [
                Hostile.body(
                    Hostile.base64url("{\"alg\":\"none\",\"x5c\":[\"\(chain[0])\",\"\(chain[1])\",\"\(chain[2])\"]}")
                        + "." + parts[1] + "."),
                Hostile.body(try Hostile.sign(good, header: JWSHeaderOverride(alg: "none"))),
                Hostile.body(try Hostile.sign(good, header: JWSHeaderOverride(alg: "HS256"))),
                Hostile.body(try Hostile.sign(good, header: JWSHeaderOverride(alg: "es256"))),
                Hostile.body(try Hostile.sign(good, header: JWSHeaderOverride(alg: nil))),
            ])
        add(
            "chain-untrusted.jsonl", ["untrusted_chain"],
            lines: [Hostile.body(try Hostile.sign(good, with: TestChains.untrustedSigner))])
        add(
            "chain-expired.jsonl", ["certificate_expired"],
            lines: [
                Hostile.body(try Hostile.sign(good, with: JWSSigner(chain: TestChains.leafValidIn2020)))
            ])
        add(
            "chain-no-oid.jsonl", ["missing_apple_oid", "missing_apple_oid"],
            lines: [
                Hostile.body(try Hostile.sign(good, with: JWSSigner(chain: TestChains.leafWithoutOID))),
                Hostile.body(try Hostile.sign(good, with: JWSSigner(chain: TestChains.intermediateWithoutOID))),
            ])
        let other = try Hostile.sign(try Hostile.saleNotification("other"))
        add(
            "signature-bad.jsonl", ["bad_signature", "bad_signature"],
            lines: [
                Hostile.body(parts[0] + "." + other.split(separator: ".")[1] + "." + parts[2]),
                Hostile.body(parts[0] + "." + parts[1] + "." + Hostile.base64url([UInt8](repeating: 7, count: 64))),
            ])

        // MARK: signed payloads (a valid signature by the trusted chain over bad content)
        let payloadText = String(decoding: good.canonicalJSON(), as: UTF8.self)
        let duplicated = "{\"notificationType\":\"REFUND\"," + payloadText.dropFirst()
        let transactionText = String(decoding: Hostile.newSale("dup-in-tx").canonicalJSON(), as: UTF8.self)
        let duplicatedTransaction = "{\"price\":1," + transactionText.dropFirst()
        add(
            "payload-bad.jsonl",
            ["bad_payload", "bad_payload", "bad_payload", "bad_payload", "bad_payload", "bad_payload", "bad_field"],
            lines: [
                Hostile.body(try Hostile.signRaw(duplicated)),
                Hostile.body(try Hostile.signRaw("not json")),
                Hostile.body(try Hostile.signRaw("[1,2,3]")),
                Hostile.body(try Hostile.sign(good.setting("notificationType", 5))),
                Hostile.body(try Hostile.sign(good.setting("data", "x"))),
                Hostile.body(
                    try Hostile.sign(
                        try app.notificationPayload(
                            type: "ONE_TIME_CHARGE", uuid: "nested-dup", signedDate: Hostile.march,
                            data: ["signedTransactionInfo": .string(try Hostile.signRaw(duplicatedTransaction))]))),
                Hostile.body(
                    try Hostile.sign(
                        try Hostile.saleNotification(
                            "huge-price",
                            transaction: Hostile.newSale(
                                "huge-price", extra: ["price": .number(JSONNumber(text: "1e300")!)])))),
            ])
        // Numbers outside what the App Store sends: quarantined as bad_field, never truncated or summed.
        func sale(_ id: String, _ extra: [String: JSONValue?]) throws -> String {
            Hostile.body(
                try Hostile.sign(try Hostile.saleNotification(id, transaction: Hostile.newSale(id, extra: extra))))
        }
        func number(_ text: String) -> JSONValue { .number(JSONNumber(text: text)!) }
        add(
            "payload-out-of-bounds.jsonl", Array(repeating: "bad_field", count: 8),
            lines: [
                try sale("price-fraction", ["price": number("49.9")]),
                try sale("price-negative", ["price": number("-1")]),
                try sale("price-int64-max", ["price": number("9223372036854775807")]),
                try sale("price-above-bound", ["price": number("1000000000001")]),
                try sale("quantity-zero", ["quantity": number("0")]),
                try sale("quantity-huge", ["quantity": number("600000000000000")]),
                try sale(
                    "percentage-above-100",
                    ["revocationPercentage": number("100001"), "revocationDate": number("1647345600000")]),
                try sale("date-2100", ["purchaseDate": number("4102444800000")]),
            ])
        // V1 bodies are unsigned: the same bounds hold for them (a real archive's overflow came from two entries of
        // quantity 600000000000000).
        let real = try #require(realLines.first { $0.contains("\"quantity\":\"1\"") }, "a V1 line with a quantity")
        add(
            "v1-out-of-bounds.jsonl", ["bad_field", "bad_field", "bad_field"],
            lines: [
                real.replacingOccurrences(of: "\"quantity\":\"1\"", with: "\"quantity\":\"600000000000000\""),
                real.replacingOccurrences(of: "\"quantity\":\"1\"", with: "\"quantity\":\"9223372036854775807\""),
                real.replacingOccurrences(of: "\"quantity\":\"1\"", with: "\"quantity\":\"-3\""),
            ])
        // Unsigned times from the future: an envelope past 2099, and one a month from now, around a real
        // V1 body. Neither moves T or the months reported.
        let monthFromNow = Int64(Date().timeIntervalSince1970 * 1000) + 30 * 86_400_000
        add(
            "v1-from-the-future.jsonl", ["bad_field", "bad_field"],
            lines: [
                "{\"receivedAt\":4102444800000,\"body\":\(real)}",
                "{\"receivedAt\":\(monthFromNow),\"body\":\(real)}",
            ])
        add(
            "payload-no-signed-date.jsonl", ["missing_signed_date"],
            lines: [Hostile.body(try Hostile.sign(good.setting("signedDate", nil)))])
        add(
            "payload-wrong-app.jsonl", ["wrong_app", "wrong_app"],
            lines: [
                Hostile.body(
                    try Hostile.sign(
                        good.setting("data", (good["data"] ?? nil).setting("bundleId", "com.example.other")))),
                Hostile.body(try Hostile.sign(good.setting("data", (good["data"] ?? nil).setting("appAppleId", 42)))),
            ])
        add(
            "payload-no-environment.jsonl", ["unknown_environment"],
            lines: [
                Hostile.body(try Hostile.sign(good.setting("data", (good["data"] ?? nil).setting("environment", nil))))
            ])
        return cases
    }

    @Test func eachHostileDocumentIsQuarantinedWithItsReasonAndNoFigureMoves() throws {
        let archive = try SimulatedArchive()
        let clean = try archive.outputs("clean")
        _ = try Pipeline(configuration: archive.configuration(database: clean.database, reports: clean.reports)).run()
        let expected = Tree.csvFiles(clean.reports)

        let v1 = try String(contentsOfFile: archive.data + "/notifications/v1/2022-01.jsonl", encoding: .utf8)
        let corpus = try Self.corpus(realLines: v1.split(separator: "\n").prefix(4).map(String.init))
        let folder = archive.root + "/hostile"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for item in corpus { try Data(item.bytes).write(to: URL(fileURLWithPath: folder + "/" + item.name)) }

        // Added to the store that already holds the clean archive…
        var configuration = archive.configuration(database: clean.database, reports: clean.reports)
        configuration.inputs.append(folder)
        let summary = try Pipeline(configuration: configuration).run()
        #expect(summary.ingest.unreadableFiles.isEmpty, "\(summary.ingest.unreadableFiles)")
        var difference = Tree.difference(expected, Tree.csvFiles(clean.reports))
        #expect(difference.isEmpty, "the hostile corpus changed a figure:\n\(difference)")
        let mismatches = try Self.reasonMismatches(corpus, database: clean.database, folder: folder)
        #expect(mismatches.isEmpty, "\n\(mismatches.joined(separator: "\n"))")

        // …and read in the same run as the clean archive, into a fresh store.
        let together = try archive.outputs("together")
        configuration = archive.configuration(database: together.database, reports: together.reports)
        configuration.inputs.append(folder)
        _ = try Pipeline(configuration: configuration).run()
        difference = Tree.difference(expected, Tree.csvFiles(together.reports))
        #expect(difference.isEmpty, "the hostile corpus changed a figure:\n\(difference)")
        #expect(try Self.reasonMismatches(corpus, database: together.database, folder: folder).isEmpty)
        let report = try String(contentsOfFile: together.reports + "/index.md", encoding: .utf8)
        #expect(!report.isEmpty)
    }

    /// "<case>: expected […] got […]" for every case whose quarantine reasons differ.
    static func reasonMismatches(_ corpus: [Case], database: String, folder: String) throws -> [String] {
        let store = try SQLiteStore(path: database)
        let rows = try store.database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT path, reason, message FROM quarantine WHERE path LIKE ? ORDER BY path, line, entry",
                arguments: [folder + "/%"])
        }
        var reasons: [String: [String]] = [:]
        var messages: [String: [String]] = [:]
        for row in rows {
            let name = (row["path"] as String).split(separator: "/").last.map(String.init) ?? ""
            reasons[name, default: []].append(row["reason"])
            messages[name, default: []].append(String((row["message"] as String).prefix(160)))
        }
        var mismatches: [String] = []
        for item in corpus where (reasons[item.name] ?? []).sorted() != item.expected {
            mismatches.append(
                "\(item.name): expected \(item.expected) got \((reasons[item.name] ?? []).sorted()) — \(messages[item.name] ?? [])"
            )
        }
        return mismatches
    }
}
