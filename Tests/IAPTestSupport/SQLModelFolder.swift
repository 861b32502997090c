import Foundation

/// The SQL models' source folder, `Sources/IAPAnalytics/SQL`, for tests that read the files themselves (the binary
/// reads the copies built into it).
public enum SQLModelFolder {
    public static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/IAPAnalytics/SQL", isDirectory: true)
}
