import Foundation
import IAPTestSupport
import Testing

@testable import IAPStore

/// A product ID with a NUL read back as `nul` on SQLite and `nul\u{FFFD}byte` on PostgreSQL. One
/// rule now, applied before either engine sees the text.
@Suite struct StoredTextTests {
    @Test(arguments: StoreKind.allCases)
    func aNULReadsBackTheSameOnBothEngines(_ kind: StoreKind) throws {
        let archive = try TestArchive("nul-\(kind)")
        let store = try StoreLocation(try kind.freshDatabase(in: archive.root)).open()
        try store.write { connection in
            try connection.executeScript("CREATE TABLE nul_probe (x text)")
            try connection.execute("INSERT INTO nul_probe (x) VALUES (?)", [.text("nul\u{0}byte")])
        }
        let back = try store.read { try $0.text("SELECT x FROM nul_probe") }
        #expect(back == "nul\u{FFFD}byte")
        #expect(StoredText.storable("plain") == "plain")
    }
}
