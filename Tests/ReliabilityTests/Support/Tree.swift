import Foundation
import IAPFormats

/// Every regular file under a folder (relative path → bytes): reports are compared byte for byte.
enum Tree {
    static func files(_ root: String) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return files }
        while let relative = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory),
                !isDirectory.boolValue
            else { continue }
            files[relative] = FileManager.default.contents(atPath: root + "/" + relative).map { [UInt8]($0) } ?? []
        }
        return files
    }

    /// Only the CSV files (report.md's data-quality section counts quarantined documents).
    static func csvFiles(_ root: String) -> [String: [UInt8]] {
        files(root).filter { $0.key.hasSuffix(".csv") }
    }

    /// A readable difference between two snapshots (first few paths), for failure messages.
    static func difference(_ a: [String: [UInt8]], _ b: [String: [UInt8]]) -> String {
        var lines: [String] = []
        for key in Set(a.keys).union(b.keys).sorted() where a[key] != b[key] {
            switch (a[key], b[key]) {
            case (nil, _): lines.append("only in second: \(key)")
            case (_, nil): lines.append("only in first: \(key)")
            default:
                let left = String(decoding: a[key]!, as: UTF8.self).split(
                    separator: "\n", omittingEmptySubsequences: false)
                let right = String(decoding: b[key]!, as: UTF8.self).split(
                    separator: "\n", omittingEmptySubsequences: false)
                let index =
                    (0..<min(left.count, right.count)).first { left[$0] != right[$0] } ?? min(left.count, right.count)
                let l = index < left.count ? String(left[index]) : "<end>"
                let r = index < right.count ? String(right[index]) : "<end>"
                lines.append("differs: \(key) line \(index + 1):\n    \(l)\n    \(r)")
            }
            if lines.count >= 8 { break }
        }
        return lines.joined(separator: "\n")
    }

    /// Path, size, mtime and SHA-256 of every entry (files, folders, links) under `root`: proves inputs untouched.
    static func fingerprint(_ root: String) -> [String: String] {
        var result: [String: String] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return result }
        while let relative = enumerator.nextObject() as? String {
            let path = root + "/" + relative
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            var text = "mode=\(info.st_mode) size=\(info.st_size) mtime=\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
            if (info.st_mode & S_IFMT) == S_IFREG {
                text += " sha256=" + ((try? FileDigest.sha256Hex(ofFileAt: path)) ?? "unreadable")
            }
            result[relative] = text
        }
        return result
    }
}
