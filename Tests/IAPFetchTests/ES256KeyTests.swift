import Foundation
import IAPFetch
import IAPTestSupport
import Testing

/// The API keys `fetch` and `consumption` sign with: App Store Connect's keys are P-256, and any other key is
/// refused when it is read, with a sentence that says so, before a request is made.
@Suite struct ES256KeyTests {
    @Test func aP256KeyIsRead() throws {
        let folder = NSTemporaryDirectory() + "iaplens-es256-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let key = try TestAPIKey(folder: folder)
        _ = try ES256Key(pem: key.pem, path: key.path)
    }

    @Test(arguments: ["P-384", "P-521", "secp256k1"])
    func aKeyOnAnotherCurveIsRefusedByName(curve: String) throws {
        let folder = NSTemporaryDirectory() + "iaplens-es256-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let key = try TestAPIKey(folder: folder, curve: curve)
        #expect {
            _ = try ES256Key(pem: key.pem, path: key.path)
        } throws: { error in
            "\(error)".contains("not an elliptic-curve P-256 key") && "\(error)".contains(key.path)
        }
    }
}
