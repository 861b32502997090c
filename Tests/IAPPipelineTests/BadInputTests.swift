import Foundation
import IAPFormats
import IAPPipeline
import IAPTestSupport
import Synchronization
import Testing

/// Every bad document lands in quarantine with its reason, and the run goes on.
@Suite struct BadInputTests {
    let app = AppFixture()

    func good(_ uuid: String) throws -> String {
        try app.notification(
            type: "DID_RENEW", uuid: uuid, signedDate: Day.at(2),
            transaction: app.transaction(
                id: "t-\(uuid)", purchase: Day.at(2), expires: Day.at(32), signedDate: Day.at(2)))
    }

    @Test func eachBadDocumentIsQuarantinedWithItsReasonAndGoodOnesAreKept() throws {
        let archive = try TestArchive()
        var otherApp = app
        otherApp.bundleId = "com.other.app"
        let forged = try app.sign(
            try app.notificationPayload(type: "DID_RENEW", uuid: "forged", signedDate: Day.at(2)),
            with: TestChains.untrustedSigner)
        try archive.write(
            "mixed.jsonl",
            lines: [
                try good("ok-1"),
                "{\"signedPayload\": \"abc",  // broken JSON
                "{\"hello\": \"world\"}",  // unknown shape
                AppFixture.body("!!!.@@@.###"),  // bad base64
                AppFixture.body(forged),  // bad signature (untrusted chain)
                try otherApp.notification(type: "DID_RENEW", uuid: "other", signedDate: Day.at(2)),  // wrong app
                try good("ok-2"),
            ])
        let gzip = Gzip.compress(Array((try good("ok-3") + "\n" + (try good("ok-4")) + "\n").utf8)) ?? []
        try archive.write("broken.jsonl.gz", bytes: Array(gzip.prefix(gzip.count - 12)), compress: false)

        let run = try IngestRun.ingest(archive)
        let reasons = try run.reasons().sorted()
        #expect(
            reasons == ["bad_base64", "bad_gzip", "bad_json", "unknown_shape", "untrusted_chain", "wrong_app"].sorted())
        #expect(try run.count("SELECT count(*) FROM notifications WHERE notification_id LIKE 'ok-%'") >= 2)
        #expect(try run.count("SELECT count(*) FROM quarantine WHERE message = '' OR excerpt IS NULL") == 0)
        #expect(run.summary.quarantined == 6)
    }

    /// A named pipe in an input folder is listed, never opened. Before: ingest opened it to look for Apple's finance
    /// files by content, and a pipe with no writer held the run forever. A writer thread checks, without waiting,
    /// whether anyone has the pipe open to read; if the run did, that open also lets the run go on, so the test
    /// fails instead of hanging.
    @Test func aNamedPipeInAnInputFolderIsNeverOpened() throws {
        let archive = try TestArchive()
        try archive.write("n.jsonl", lines: [try good("ok-1")])
        let pipe = archive.inputs + "/stray.csv"
        #expect(mkfifo(pipe, 0o644) == 0)
        let done = Atomic(false), opened = Atomic(false)
        let watcher = Thread {
            while !done.load(ordering: .acquiring) {
                let descriptor = open(pipe, O_WRONLY | O_NONBLOCK)
                if descriptor >= 0 {
                    opened.store(true, ordering: .releasing)
                    close(descriptor)
                }
                usleep(1_000)
            }
        }
        watcher.start()
        let run = try IngestRun.ingest(archive)
        done.store(true, ordering: .releasing)
        let wasOpened = opened.load(ordering: .acquiring)
        #expect(!wasOpened)
        #expect(run.summary.entriesNotFiles == [pipe])
        #expect(run.summary.accepted == 1)
    }

    @Test func unknownNotificationTypesAndFieldsAreKept() throws {
        let archive = try TestArchive()
        let payload = try app.notificationPayload(
            type: "SOMETHING_APPLE_ADDS_NEXT_YEAR", subtype: "NEW_SUBTYPE", uuid: "n-new", signedDate: Day.at(3),
            transaction: app.transaction(
                id: "t9", purchase: Day.at(3), signedDate: Day.at(3), extra: ["brandNewField": "x"]),
            data: ["status": 9, "unknownDataField": true])
        try archive.write(
            "new.jsonl", lines: [AppFixture.body(try app.sign(payload.setting("anotherNewTopLevelField", 1)))])
        let run = try IngestRun.ingest(archive)
        #expect(try run.reasons() == [])
        let type: String? = try run.value("SELECT notification_type || '/' || subtype FROM notifications")
        #expect(type == "SOMETHING_APPLE_ADDS_NEXT_YEAR/NEW_SUBTYPE")
        #expect(try run.count("SELECT count(*) FROM transactions WHERE transaction_id = 't9'") == 1)
    }
}
