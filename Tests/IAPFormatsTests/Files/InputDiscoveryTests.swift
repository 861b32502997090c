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
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/c/deep/loop", withDestinationPath: folder.path + "/c")

        let (files, skipped, _) = try InputDiscovery.discover([folder.path, single.path])
        let names = files.map { String($0.path.dropFirst(folder.path.count + 1)) }
        #expect(names == ["a.json", "b/1.ndjson.gz", "b/2.jsonl", "c/deep/x.JSON", "single.jsonl"])
        #expect(skipped.map { String($0.dropFirst(folder.path.count + 1)) } == ["b/data.csv", "notes.txt"])
        #expect(files.first?.byteCount == 2)
    }

    @Test func missingPathIsATypedErrorNamingIt() throws {
        let error = try #require(throws: InputDiscoveryError.self) { try InputDiscovery.discover(["/no/such/iaplens-input"]) }
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
        #expect(try FileDigest.sha256Hex(ofFileAt: file.path) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(FileDigest.sha256Hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(throws: FileAccessError.self) { try FileDigest.sha256Hex(ofFileAt: folder.path + "/missing") }
    }
}
