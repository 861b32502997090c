import Foundation
import IAPFormats
import IAPTestSupport

/// Reads every result of a file, turning documents into text for readable expectations.
func readAll(_ file: InputFile, maxDocumentBytes: Int = DocumentReader.defaultMaxDocumentBytes) -> [ReadItem] {
    DocumentReader(file: file, maxDocumentBytes: maxDocumentBytes).map { result in
        switch result {
        case .document(let line, let bytes): .document(line, String(decoding: bytes, as: UTF8.self))
        case .failure(let line, let failure): .failure(line, failure.reason)
        }
    }
}

enum ReadItem: Equatable, CustomStringConvertible {
    case document(Int, String)
    case failure(Int, FormatFailureReason)

    var description: String {
        switch self {
        case .document(let line, let text): "doc@\(line) \(text.prefix(40))"
        case .failure(let line, let reason): "fail@\(line) \(reason.rawValue)"
        }
    }
}
