import Foundation
import IAPTestSupport
import Testing

@testable import IAPFormats

@Suite struct InputDiscoveryTests {
    @Test func expandsFoldersRecursivelySortedAndSkipsOtherNames() throws {
        let folder = try TemporaryFolder()
        try folder.write("b/2.jsonl", "{}")
        try folder.write("b/1.ndjson.gz", try gzip("{}"))
        try folder.write("a.json", "{}")
        try folder.write("c/deep/x.JSON", "{}")
        try folder.write("notes.txt", "hi")
        try folder.write("b/data.csv", "x")
        let single = try folder.write("single.jsonl", "{}\n")
        // A link loop must not hang discovery.
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/c/deep/loop", withDestinationPath: folder.path + "/c")

        let (files, skipped, _, _) = try InputDiscovery.discover([folder.path, single.path])
        let names = files.map { String($0.path.dropFirst(folder.path.count + 1)) }
        #expect(names == ["a.json", "b/1.ndjson.gz", "b/2.jsonl", "c/deep/x.JSON", "single.jsonl"])
        #expect(skipped.map { String($0.dropFirst(folder.path.count + 1)) } == ["b/data.csv", "notes.txt"])
        #expect(files.first?.byteCount == 2)
    }

    /// iaplens's reports folder kept under the archive folder: before, every run read its thousands of files again to
    /// look for Apple's files among them and said "ignored N files". Now the folder is left out where an input folder
    /// holds it, and read like any other where it is itself given as an input.
    @Test func aFolderToLeaveOutIsLeftOutInsideAnInputButReadWhenGiven() throws {
        let folder = try TemporaryFolder()
        try folder.write("archive/n.jsonl", "{}")
        try folder.write("archive/reports/months.csv", "month")
        try folder.write("archive/reports/2026-03/churn.csv", "month")
        let reports = folder.path + "/archive/reports"
        let inside = try InputDiscovery.discover([folder.path + "/archive"], leavingOut: [reports])
        #expect(inside.files.map(\.path) == [folder.path + "/archive/n.jsonl"] && inside.skipped.isEmpty)
        #expect(inside.leftOut == [reports])
        let given = try InputDiscovery.discover([folder.path + "/archive", reports], leavingOut: [reports])
        #expect(given.skipped.count == 2 && given.leftOut.isEmpty)
        // Through a link to it, the same folder: left out too.
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/archive/latest", withDestinationPath: reports)
        let linked = try InputDiscovery.discover([folder.path + "/archive"], leavingOut: [reports])
        #expect(linked.skipped.isEmpty && linked.leftOut.count == 1, "\(linked)")
    }

    @Test func missingPathIsATypedErrorNamingIt() throws {
        let error = try #require(throws: InputDiscoveryError.self) {
            try InputDiscovery.discover(["/no/such/iaplens-input"])
        }
        #expect(error == .notFound(path: "/no/such/iaplens-input"))
        #expect(error.description.contains("/no/such/iaplens-input"))
    }

    @Test func acceptedNames() {
        #expect(InputDiscovery.isAcceptedName("a.json.gz"))
        #expect(InputDiscovery.isAcceptedName("a.NDJSON"))
        #expect(!InputDiscovery.isAcceptedName("a.json.zip"))
        #expect(!InputDiscovery.isAcceptedName(".json"))
        #expect(!InputDiscovery.isAcceptedName("a.gz"))
    }

    @Test func sha256OfFile() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("abc.json", "abc")
        #expect(
            try FileDigest.sha256Hex(ofFileAt: file.path)
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            FileDigest.sha256Hex(of: Array("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(throws: FileAccessError.self) { try FileDigest.sha256Hex(ofFileAt: folder.path + "/missing") }
    }
}
