import Foundation

/// Every fast path iaplens takes, each an optimisation of a reference implementation that stays in the code.
///
/// Each case names the fast path; its documentation names the reference it replaces. All fast paths are on by
/// default. `IAPLENS_REFERENCE` turns them off, so that a run takes the reference instead: `all`, or a
/// comma-separated list of these names (`IAPLENS_REFERENCE=leaf-key-table,vector-text iaplens ingest …`). Results
/// never depend on the switch, only speed: the differential tests hold each fast path to its reference, and
/// `ReferencePathTests` runs the whole pipeline both ways and compares every report byte. Why each fast path is
/// kept, and what it gains: Documentation/Performance.md, "Fast paths and their references".
public enum FastPath: String, CaseIterable, Sendable {
    /// Signature checks with a precomputed table of multiples of the leaf key (`CFixedKeyECDSA`).
    /// Reference: OpenSSL's `EVP_PKEY_verify` for every signature.
    case leafKeyTable = "leaf-key-table"
    /// Base64 decoding and the JSON string scan 32 bytes at a time with AVX2 (`CAVX2TextKernels`), where the CPU has it.
    /// Reference: the portable table decoder and 16-byte scan.
    case vectorText = "vector-text"
    /// Apple's flat payloads read in place (`FlatJSONObject`). Reference: the full JSON parser's tree (`JSONParser`).
    case inPlaceJSON = "in-place-json"

    /// The environment variable that turns fast paths off.
    public static let environmentVariable = "IAPLENS_REFERENCE"

    /// The fast paths this process runs, one bit each: all but those `IAPLENS_REFERENCE` names. Read once, when first
    /// asked; a bit test after that, cheap enough for the loops that ask on every document.
    private static let enabledBits: UInt32 = {
        let value = ProcessInfo.processInfo.environment[environmentVariable] ?? ""
        return ((try? enabled(byReference: value)) ?? []).reduce(0) { $0 | $1.bit }
    }()

    private var bit: UInt32 {
        switch self {
        case .leafKeyTable: 1
        case .vectorText: 2
        case .inPlaceJSON: 4
        }
    }

    /// Whether this fast path runs in this process.
    @inline(__always)
    public var isEnabled: Bool { Self.enabledBits & bit != 0 }

    /// The fast paths left on by an `IAPLENS_REFERENCE` value; throws on a name that is not a fast path's.
    public static func enabled(byReference value: String) throws(UnknownFastPath) -> Set<FastPath> {
        var enabled = Set(allCases)
        for name in value.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            if name == "all" {
                enabled = []
            } else if let path = FastPath(rawValue: name) {
                enabled.remove(path)
            } else {
                throw UnknownFastPath(name: name)
            }
        }
        return enabled
    }

    /// Checks this process's `IAPLENS_REFERENCE`: the command line calls it first, so that a misspelt name stops the
    /// run instead of leaving a fast path on.
    public static func validateEnvironment() throws(UnknownFastPath) {
        _ = try enabled(byReference: ProcessInfo.processInfo.environment[environmentVariable] ?? "")
    }
}

/// An `IAPLENS_REFERENCE` entry that names no fast path.
public struct UnknownFastPath: Error, CustomStringConvertible, Sendable {
    public let name: String

    public var description: String {
        "IAPLENS_REFERENCE names \"\(name)\", which is not a fast path; use all or any of "
            + FastPath.allCases.map(\.rawValue).joined(separator: ", ") + "."
    }
}
