import Foundation
import IAPTestSupport
import Testing

@testable import IAPStore

/// iaplens's text reaches PostgreSQL as it is, whatever client encoding the user's environment names, in every
/// database encoding that can hold it; a database that cannot is refused at once with what to do.
@Suite struct PostgresEncodingTests {
    /// Text no one-byte encoding has a character for, beside ASCII and an accented letter.
    static let text = "客-acct-é"

    private func roundTrip(_ url: String) throws -> String? {
        let store = try StoreLocation(url).open()
        try store.write { connection in
            try connection.executeScript("CREATE TABLE encoding_probe (x text collate \"C\")")
            try connection.execute("INSERT INTO encoding_probe (x) VALUES (?)", [.text(Self.text)])
        }
        return try store.read { try $0.text("SELECT x FROM encoding_probe") }
    }

    /// Before, the server converted iaplens's UTF-8 from EUC_JP and refused it: "invalid byte sequence for encoding
    /// EUC_JP" (a run's quarantine copied in, exit 1).
    @Test(arguments: ["EUC_JP", "LATIN1", "SQL_ASCII"])
    func aClientEncodingNamedOutsideChangesNothing(_ encoding: String) throws {
        let url = try TestPostgres.freshStore("client_\(encoding)") + "&client_encoding=\(encoding)"
        #expect(try roundTrip(url) == Self.text)
    }

    /// One-byte databases hold the UTF-8 bytes unchanged; a multi-byte one other than UTF-8 cannot, and is refused
    /// before any table is made in it.
    @Test(arguments: [("LATIN1", true), ("SQL_ASCII", true), ("EUC_JP", false)])
    func aDatabaseIsUsedOnlyWhenItsEncodingHoldsTheText(_ encoding: String, _ holds: Bool) throws {
        let database = "encoding_\(encoding.lowercased())_\(UUID().uuidString.prefix(8).lowercased())"
        let server = try TestPostgres.serverURL()
        // CREATE DATABASE runs outside a transaction: on a session of its own, not through a store.
        let admin = try PostgresStore.connect(try PostgresURL(server))
        try admin.executeScript(
            "CREATE DATABASE \(database) TEMPLATE template0 ENCODING '\(encoding)' LC_COLLATE 'C' LC_CTYPE 'C'")
        defer { try? admin.executeScript("DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
        let url = server[..<(server.lastIndex(of: "/") ?? server.endIndex)] + "/\(database)"
        if holds {
            #expect(try roundTrip(String(url)) == Self.text)
        } else {
            do {
                _ = try StoreLocation(String(url)).open()
                Issue.record("a database in \(encoding) was used")
            } catch let error as StoreError {
                #expect(error.isUsage)
                #expect("\(error)".contains("its database's encoding is \(encoding)"), "\(error)")
                #expect("\(error)".contains("ENCODING 'UTF8'"), "\(error)")
            }
        }
    }
}
