import Foundation
import IAPFormats
import IAPStore

/// Hashes the input files in order on a thread of its own, ahead of the reader: a file's content hash names
/// its rows, so the reader needs it before the file's first document, and hashing a 130 MB monthly archive
/// took longer than the chunks the reader had queued, so the cores waited at every large file.
///
/// The same pass tells whether a file is an earlier file of its path with bytes appended: the digest of its first
/// bytes is taken on the way when the store holds a shorter state of that path (``FileContinuation``).
final class FileHasher: Sendable {
    /// A file's identity as hashed.
    struct Hashed: Sendable {
        let sha256: String
        /// The size hashed; the reader reads exactly these bytes.
        let byteCount: Int64
        /// The hash of the earlier state this file continues, if any.
        let continues: String?
    }

    private let hashes: BoundedQueue<Result<Hashed, FileAccessError>>

    /// - Parameters:
    ///   - earlier: the store's registered files, by path (shortest first).
    ///   - ahead: hashes computed and not yet taken, at most (one more may be in progress).
    init(files: [InputFile], earlier: [String: [FileRegistration]] = [:], ahead: Int = 1) {
        let hashes = BoundedQueue<Result<Hashed, FileAccessError>>(capacity: ahead)
        self.hashes = hashes
        PipelineThread.start(name: "iaplens.hasher") {
            defer { hashes.finish() }
            for file in files {
                let hash = Result { () throws(FileAccessError) -> Hashed in
                    try Self.hash(file, earlier: earlier[file.path] ?? [])
                }
                guard hashes.put(hash) else { return }
            }
        }
    }

    /// The longest earlier state shorter than the file, checked by the digest of as many leading bytes.
    private static func hash(_ file: InputFile, earlier: [FileRegistration]) throws(FileAccessError) -> Hashed {
        let candidate = earlier.last { $0.byteCount < file.byteCount }
        let digest = try FileDigest.digest(ofFileAt: file.path, prefixLength: candidate?.byteCount)
        let continues =
            candidate.flatMap { candidate in
                digest.byteCount > candidate.byteCount && digest.prefixSHA256 == candidate.sha256
                    ? candidate.sha256 : nil
            }
        return Hashed(sha256: digest.sha256, byteCount: digest.byteCount, continues: continues)
    }

    /// The next file's hash (or why it could not be read), in the order of `files`; nil after the last.
    func next() -> Result<Hashed, FileAccessError>? { hashes.take() }

    /// Stops hashing at the next file.
    func cancel() { hashes.cancel() }
}
