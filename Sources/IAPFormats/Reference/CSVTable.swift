import CLibCSV

/// A CSV file read with libcsv (RFC 4180, strict quoting), each record tagged with the line it starts on: the
/// reference files, and the report files an index is rebuilt from.
public struct CSVTable: Sendable {
    /// One record and the line it starts on.
    public struct Record: Sendable {
        public let line: Int
        public let fields: [String]
    }

    /// Every record, the header first.
    public let records: [Record]

    /// Reads and splits the whole file (reference files are small). A leading UTF-8 byte-order mark is dropped.
    /// - Parameter keepSpaces: Keep spaces and tabs around unquoted fields (libcsv trims them by default): a value
    ///   such as an account ID is then exactly what the file holds.
    public static func read(path: String, keepSpaces: Bool = false) throws(ReferenceFileError) -> CSVTable {
        let bytes: [UInt8]
        do {
            bytes = try readWholeFile(path)
        } catch {
            throw ReferenceFileError(
                file: path, problems: [.init(line: 0, message: "the file cannot be read: \(error.reason).")])
        }
        return try parse(bytes, file: path, keepSpaces: keepSpaces)
    }

    public static func parse(_ input: [UInt8], file: String, keepSpaces: Bool = false) throws(ReferenceFileError)
        -> CSVTable
    {
        var bytes = input[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let collector = Collector()
        let parser = UnsafeMutablePointer<csv_parser>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard csv_init(parser, UInt8(CSV_STRICT | CSV_STRICT_FINI)) == 0 else {
            throw ReferenceFileError(file: file, problems: [.init(line: 0, message: "libcsv could not start.")])
        }
        defer { csv_free(parser) }
        if keepSpaces { csv_set_space_func(parser) { _ in 0 } }
        let context = Unmanaged.passUnretained(collector).toOpaque()
        // Feed one physical line at a time so each record knows the line it starts on, even with quoted newlines.
        var lineNumber = 0
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: Byte.newline).map { $0 + 1 } ?? bytes.endIndex
            lineNumber += 1
            if parser.pointee.pstate == 0 && collector.current.isEmpty { collector.recordLine = lineNumber }
            let fed = bytes[start..<end].withUnsafeBytes { raw in
                csv_parse(parser, raw.baseAddress, raw.count, fieldEnded, recordEnded, context)
            }
            if fed != end - start { throw syntaxError(parser, file: file, line: lineNumber) }
            start = end
        }
        if csv_fini(parser, fieldEnded, recordEnded, context) != 0 {
            throw syntaxError(parser, file: file, line: max(lineNumber, 1))
        }
        return CSVTable(records: collector.records)
    }

    private static func syntaxError(_ parser: UnsafeMutablePointer<csv_parser>, file: String, line: Int)
        -> ReferenceFileError
    {
        let reason = csv_strerror(csv_error(parser)).map { String(cString: $0) } ?? "unknown error"
        let hint = "check the quoting: a field with a comma or quote must be in double quotes, inner quotes doubled"
        return ReferenceFileError(
            file: file, problems: [.init(line: line, message: "the CSV cannot be read (\(reason)); \(hint).")])
    }

    private static func readWholeFile(_ path: String) throws(FileAccessError) -> [UInt8] {
        let file = try POSIXFile(path: path)
        defer { file.release() }
        var bytes: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try file.fill(buffer)
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return bytes
    }

    /// Receives libcsv's callbacks.
    private final class Collector {
        var records: [Record] = []
        var current: [String] = []
        var recordLine = 1

        func endRecord() {
            records.append(Record(line: recordLine, fields: current))
            current = []
        }
    }

    private static let fieldEnded: @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Void = {
        field, length, context in
        guard let context else { return }
        let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
        let text = field.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: length), as: UTF8.self) } ?? ""
        collector.current.append(text)
    }

    private static let recordEnded: @convention(c) (Int32, UnsafeMutableRawPointer?) -> Void = { _, context in
        guard let context else { return }
        Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue().endRecord()
    }
}
