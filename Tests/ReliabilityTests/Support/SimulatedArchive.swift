import Foundation
import IAPPipeline
import IAPSimulator
import IAPTestSigning
import IAPTestSupport
import Synchronization

/// A small seeded simulator archive (realistic noise: duplicates, forgeries, broken lines, sandbox, TEST, other apps)
/// in a temp folder, with the command-line arguments and pipeline configuration that read it.
final class SimulatedArchive: @unchecked Sendable {
    // @unchecked: used only by the test that owns it.
    let root: String
    let data: String

    static let bundleId = "com.example.iaplens.demo"
    static let appAppleId: Int64 = 1_234_567_890
    static let dataFolders = ["notifications", "history", "refunds", "orders", "finance"]

    init(
        _ name: String = #function, seed: UInt64 = 42, subscribers: Int = 30, consumableBuyers: Int = 20,
        refundRings: Int = 2,
        months: Int = 6, allV2: Bool = false
    ) throws {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        root = NSTemporaryDirectory() + "iaplens-rel-\(safe)-\(UUID().uuidString.prefix(8))"
        data = root + "/archive"
        var options = SimulationOptions()
        options.seed = seed
        options.subscribers = subscribers
        options.consumableBuyers = consumableBuyers
        options.refundRings = refundRings
        options.months = months
        if allV2 {
            options.v2StartMonth = options.startMonth
            options.noise = false
        }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        // Tests change their copy (append to files, add hostile ones), so each gets its own.
        try FileManager.default.copyItem(atPath: try Self.simulated(options), toPath: data)
        try TestChains.trusted.rootPEM.write(toFile: testRoot, atomically: true, encoding: .utf8)
    }

    /// Each distinct archive is simulated (and signed) once per test process, then copied: nine tests use the same
    /// seed-42 archive.
    private static let cache = Mutex<[String: String]>([:])
    private static let cacheRoot = NSTemporaryDirectory() + "iaplens-sim-cache-\(getpid())"

    private static func simulated(_ options: SimulationOptions) throws -> String {
        let key =
            "\(options.seed)-\(options.subscribers)-\(options.consumableBuyers)-\(options.refundRings)-\(options.months)-"
            + "\(options.v2StartMonth ?? "")-\(options.noise)"
        return try cache.withLock { folders in
            if let folder = folders[key] { return folder }
            if folders.isEmpty { atexit { try? FileManager.default.removeItem(atPath: SimulatedArchive.cacheRoot) } }
            let folder = cacheRoot + "/" + key
            _ = try Simulator(options: options).run(into: folder)
            folders[key] = folder
            return folder
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    var simulatorRoot: String { data + "/certs/root.pem" }
    /// The root of ``TestChains/trusted``, trusted too so hostile documents can be signed by a trusted chain.
    var testRoot: String { root + "/test-root.pem" }
    var products: String { data + "/products.csv" }
    var accounts: String { data + "/accounts.csv" }
    var inputFolders: [String] { Self.dataFolders.map { data + "/" + $0 } }

    /// Every input file, sorted.
    var inputFiles: [String] {
        inputFolders.flatMap { folder -> [String] in
            let names = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String]) ?? []
            return names.map { folder + "/" + $0 }.filter { !$0.hasSuffix("/") && Self.isFile($0) }
        }.sorted()
    }

    static func isFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// A fresh pair of outputs under this archive's root.
    func outputs(_ name: String) throws -> (database: String, reports: String) {
        let folder = root + "/out-" + name
        try FileManager.default.createDirectory(atPath: folder + "/db", withIntermediateDirectories: true)
        return (folder + "/db/store.sqlite", folder + "/reports")
    }

    /// `iaplens run …` arguments for this archive.
    func runArguments(database: String, reports: String, inputs: [String]? = nil, extraInputs: [String] = [])
        -> [String]
    {
        var arguments = ["run"]
        for input in (inputs ?? inputFolders) + extraInputs { arguments += ["--input", input] }
        arguments += [
            "--database", database, "--reports", reports, "--bundle-id", Self.bundleId,
            "--app-apple-id", String(Self.appAppleId), "--root-certificate", simulatorRoot, "--root-certificate",
            testRoot,
            "--products", products, "--accounts", accounts,
        ]
        return arguments
    }

    /// The same run as a configuration, for in-process runs.
    func configuration(database: String, reports: String, inputs: [String]? = nil) -> PipelineConfiguration {
        var configuration = PipelineConfiguration()
        configuration.inputs = inputs ?? inputFolders
        configuration.databasePath = database
        configuration.reportsDirectory = reports
        configuration.bundleId = Self.bundleId
        configuration.appAppleId = Self.appAppleId
        configuration.rootCertificates = [simulatorRoot, testRoot]
        configuration.productsPath = products
        configuration.accountsPath = accounts
        return configuration
    }

    /// A run of the committed sample (`data/sample/archive`, what the README's main command reads) into `database`
    /// and `reports`, with every reference file the sample has.
    static func sampleConfiguration(database: String, reports: String) -> PipelineConfiguration {
        let sample = CLI.repositoryRoot + "/data/sample/archive"
        var configuration = PipelineConfiguration()
        configuration.inputs = dataFolders.map { sample + "/" + $0 }
        configuration.databasePath = database
        configuration.reportsDirectory = reports
        configuration.bundleId = bundleId
        configuration.appAppleId = appAppleId
        configuration.rootCertificates = [sample + "/certs/root.pem"]
        configuration.productsPath = sample + "/products.csv"
        configuration.accountsPath = sample + "/accounts.csv"
        configuration.reviewsPath = sample + "/reviews.csv"
        return configuration
    }
}
