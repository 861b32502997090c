import Foundation
import IAPFormats

/// Hashes the input files in order on a thread of its own, ahead of the reader: a file's content hash names
/// its rows, so the reader needs it before the file's first document, and hashing a 130 MB monthly archive
/// took longer than the chunks the reader had queued, so the cores waited at every large file.
final class FileHasher: Sendable {
    private let hashes: BoundedQueue<Result<String, FileAccessError>>

    /// - Parameter ahead: hashes computed and not yet taken, at most (one more may be in progress).
    init(files: [InputFile], ahead: Int = 1) {
        let hashes = BoundedQueue<Result<String, FileAccessError>>(capacity: ahead)
        self.hashes = hashes
        let thread = Thread {
            defer { hashes.finish() }
            for file in files {
                let hash = Result { () throws(FileAccessError) -> String in try FileDigest.sha256Hex(ofFileAt: file.path) }
                guard hashes.put(hash) else { return }
            }
        }
        thread.name = "iaplens.hasher"
        thread.start()
    }

    /// The next file's hash (or why it could not be read), in the order of `files`; nil after the last.
    func next() -> Result<String, FileAccessError>? { hashes.take() }

    /// Stops hashing at the next file.
    func cancel() { hashes.cancel() }
}
