import Foundation
import IAPTestSupport
import Testing

@testable import IAPFinanceFiles
@testable import IAPFormats

/// Apple's files damaged in every small way a download, an editor or a spreadsheet can damage them: a byte changed,
/// inserted or deleted, a line repeated, two lines swapped, the end cut off. Each variant either reads or is refused
/// with a sentence; none traps (an overflow, an index past the end), which would end the whole run instead of
/// refusing one file. Deterministic: the same seeds give the same variants on every run.
@Suite struct MutatedAppleFilesTests {
    /// Bytes that mean something to the readers: separators, quotes, line ends, signs, digits, a NUL, and the first
    /// bytes of UTF-8 and UTF-16 text.
    static let telling: [UInt8] = Array(",\"\n\r\t-.0957 ()/".utf8) + [0x00, 0xFF, 0xFE, 0xC3, 0xEF]

    /// One to three damages of `bytes`.
    static func mutate(_ bytes: [UInt8], seed: UInt64) -> [UInt8] {
        var generator = SeededRandom(seed: seed)
        var bytes = bytes
        for _ in 0...generator.below(3) where !bytes.isEmpty {
            let at = generator.below(bytes.count)
            switch generator.below(7) {
            case 0: bytes[at] = telling[generator.below(telling.count)]
            case 1: bytes.insert(telling[generator.below(telling.count)], at: at)
            case 2: bytes.removeSubrange(at..<min(bytes.count, at + 1 + generator.below(12)))
            case 3:
                bytes.insert(contentsOf: Array(repeating: UInt8(ascii: "9"), count: 1 + generator.below(25)), at: at)
            case 4: bytes = Array(bytes.prefix(at))
            default:
                var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
                let a = generator.below(lines.count)
                let b = generator.below(lines.count)
                if generator.below(2) == 0 { lines.insert(lines[a], at: b) } else { lines.swapAt(a, b) }
                bytes = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
            }
        }
        return bytes
    }

    /// Writes each variant to one file in turn and hands it to `read`.
    private func eachVariant(of original: String, name: String, count: Int, _ read: (InputFile) -> Bool) throws -> (
        read: Int, refused: Int
    ) {
        let folder = NSTemporaryDirectory() + "iaplens-mutated-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/" + name
        var tally = (read: 0, refused: 0)
        for seed in 0..<UInt64(count) {
            let bytes = Self.mutate(Array(original.utf8), seed: seed)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            if read(InputFile(path: path, byteCount: Int64(bytes.count))) {
                tally.read += 1
            } else {
                tally.refused += 1
            }
        }
        return tally
    }

    @Test func aDamagedPaymentSummaryReadsOrIsRefusedNeverTraps() throws {
        let tally = try eachVariant(of: PaymentSummaryReaderTests.example, name: "financial_report.csv", count: 3_000) {
            file in
            let reader = PaymentSummaryReader(file: file)
            guard reader.recognize() == .summary else { return false }
            do {
                let summary = try reader.read()
                // What reads is whole: every row a region with its currency code, amounts within their bounds.
                #expect(summary.rows.allSatisfy { !$0.region.isEmpty && $0.currency.utf8.count == 3 })
                #expect(summary.rows.allSatisfy { abs($0.earnedMilli) <= PaymentSummaryReader.amountLimit })
                return true
            } catch {
                #expect(!"\(error)".isEmpty)
                return false
            }
        }
        // Both outcomes happen: the damages are neither all harmless nor all fatal.
        #expect(tally.read > 100 && tally.refused > 100, "\(tally)")
    }

    @Test func aDamagedFinancialReportReadsOrIsRefusedNeverTraps() throws {
        let rows =
            (1...9).map {
                FinanceFixture.row(
                    "03/0\($0)/2026", quantity: "\($0)", share: "0.69",
                    extended: String(format: "%.2f", 0.69 * Double($0)))
            }
            + [FinanceFixture.row("03/10/2026", quantity: "-1", share: "0.69", extended: "-0.69", kind: "R")]
        let report = FinanceFixture.report(rows: rows)
        let tally = try eachVariant(of: report, name: "FINANCE_DETAIL_Z1.txt", count: 3_000) { file in
            let reader = FinancialReportReader(file: file)
            guard case .report = reader.recognize() else { return false }
            do {
                var items = 0
                _ = try reader.read { _ in items += 1 }
                return true
            } catch {
                #expect(!"\(error)".isEmpty)
                return false
            }
        }
        #expect(tally.read > 100 && tally.refused > 100, "\(tally)")
    }
}
