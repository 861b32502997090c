// swift-tools-version: 6.1
// iaplens — App Store purchase records into finance, trust-and-safety and product reports.
//
// Layers, one direction of dependency: formats → verification → model → store → analytics → reports → pipeline → CLI,
// drawn from this file in Documentation/Architecture.md (scripts/architecture-graph.sh). IAPTestSigning (a test chain
// shaped like Apple's, an ES256 signer) and IAPSimulator sit beside them, for the tests, the simulator and the
// benchmarks, never the ingest path.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "iaplens",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "iaplens", targets: ["iaplens"]),
        .executable(name: "iaplens-bench", targets: ["iaplens-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The tests' fake Apple APIs are SwiftNIO servers. iaplens itself talks HTTPS through Foundation's URLSession.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The command line's timestamped, levelled log lines (--quiet, --verbose).
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // MARK: - System libraries (Debian packages; the README's commands install them)
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        // The executables allocate through jemalloc instead of glibc's malloc: 2-5 % less CPU per ingested
        // notification, within the memory bound (Documentation/Performance.md "Fast paths and their references").
        // Depending on this target links Debian's libjemalloc-dev, whose malloc comes before glibc's, with its one
        // option (`malloc_conf`). The test binaries keep glibc's allocator; MemoryRelease handles both.
        .target(name: "CJemallocSettings", linkerSettings: [.linkedLibrary("jemalloc")]),
        .systemLibrary(name: "CLibCSV", providers: [.apt(["libcsv-dev"])]),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // Reading gzip archives: Intel ISA-L's inflate, faster than zlib's on the same streams (Performance.md).
        .systemLibrary(name: "CISAL", providers: [.apt(["libisal-dev"])]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLibPQ", providers: [.apt(["libpq-dev"])]),
        // HTTPS to Apple's APIs (IAPFetch's HTTPTransport).
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // Base64 decoding and the JSON string scan with AVX2 (Debian packages no vectorised decoder; Performance.md
        // "Fast paths and their references").
        .target(name: "CAVX2TextKernels"),
        .target(name: "CFixedKeyECDSA", linkerSettings: [.linkedLibrary("crypto")]),

        // MARK: - Libraries, in layer order
        .target(
            name: "IAPFormats", dependencies: ["CZlib", "CISAL", "COpenSSL", "CLibCSV", "CAVX2TextKernels"],
            swiftSettings: swiftSettings),
        // Apple's financial reports and payment summaries, the fiscal calendar and exact decimal amounts.
        .target(name: "IAPFinanceFiles", dependencies: ["IAPFormats"], swiftSettings: swiftSettings),
        .target(
            name: "IAPVerification", dependencies: ["COpenSSL", "CFixedKeyECDSA", "IAPFormats"],
            swiftSettings: swiftSettings),
        .target(name: "IAPModel", dependencies: ["IAPFormats"], swiftSettings: swiftSettings),
        .target(
            name: "IAPStore",
            dependencies: [
                "IAPFormats", "CSQLite", "CLibPQ", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "IAPAnalytics",
            dependencies: ["IAPStore", "IAPFormats", "IAPFinanceFiles"],
            swiftSettings: swiftSettings,
            // The SQL/*.sql models are compiled into the binary (EmbeddedSQLModels), so iaplens is one file.
            plugins: ["EmbedSQLModels"]
        ),
        .executableTarget(name: "iaplens-embed-sql", swiftSettings: swiftSettings),
        .plugin(name: "EmbedSQLModels", capability: .buildTool(), dependencies: ["iaplens-embed-sql"]),
        .target(
            name: "IAPReports", dependencies: ["IAPAnalytics", "IAPStore", "IAPFormats", "IAPFinanceFiles", "CLibCSV"],
            swiftSettings: swiftSettings),
        .target(
            name: "IAPPipeline",
            dependencies: [
                "IAPFormats", "IAPFinanceFiles", "IAPVerification", "IAPModel", "IAPStore", "IAPAnalytics",
                "IAPReports",
                "IAPFetch", "IAPConsumption",
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "IAPFetch",
            dependencies: [
                "CCurl", "COpenSSL", "IAPFormats", "IAPFinanceFiles", "IAPStore",
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "IAPConsumption",
            dependencies: ["IAPFetch", "IAPStore", "IAPFormats", "IAPAnalytics"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "IAPTestSigning", dependencies: ["COpenSSL", "IAPFormats", "IAPVerification"],
            swiftSettings: swiftSettings),
        .target(
            name: "IAPSimulator", dependencies: ["IAPTestSigning", "IAPFormats", "IAPFinanceFiles", "CZlib"],
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "iaplens",
            dependencies: [
                "IAPPipeline", "IAPSimulator", "IAPFormats", "IAPStore", "IAPAnalytics", "IAPReports", "IAPFetch",
                "IAPConsumption", "CJemallocSettings",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),

        // Benchmark helper for scripts/benchmark.sh (raw OpenSSL verify rate, verification stage alone).
        .executableTarget(
            name: "iaplens-bench",
            dependencies: [
                "COpenSSL", "CFixedKeyECDSA", "IAPFormats", "IAPVerification", "IAPStore", "IAPPipeline",
                "CJemallocSettings",
            ],
            path: "Benchmarks/iaplens-bench",
            swiftSettings: swiftSettings
        ),

        // The fuzzer's checks (Fuzz/DecodingChecks): linked into the libFuzzer target by scripts/fuzz.sh, and replayed
        // over the seed corpus by ReliabilityTests on every test run.
        .target(
            name: "IAPDecodingChecks", dependencies: ["IAPFormats", "IAPModel", "IAPVerification"],
            path: "Fuzz/DecodingChecks", swiftSettings: swiftSettings),

        // MARK: - Tests (mirror Sources/)
        .target(
            name: "IAPTestSupport",
            dependencies: [
                "IAPTestSigning", "IAPStore", "IAPPipeline", "IAPFormats", "IAPFinanceFiles", "IAPAnalytics",
                "IAPFetch", "COpenSSL",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/IAPTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "IAPFormatsTests", dependencies: ["IAPFormats", "IAPTestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "IAPFinanceFilesTests", dependencies: ["IAPFinanceFiles", "IAPTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "IAPVerificationTests",
            dependencies: ["IAPVerification", "IAPTestSigning", "CFixedKeyECDSA", "COpenSSL"],
            // Wycheproof: the public ECDSA P-256/SHA-256 test vectors (C2SP/wycheproof, Apache-2.0), as data.
            resources: [.copy("Certificates"), .copy("Wycheproof")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "IAPTestSigningTests", dependencies: ["IAPTestSigning", "IAPVerification"],
            swiftSettings: swiftSettings),
        .testTarget(name: "IAPModelTests", dependencies: ["IAPModel"], swiftSettings: swiftSettings),
        .testTarget(
            name: "IAPStoreTests",
            dependencies: ["IAPStore", "IAPTestSupport", "CSQLite", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "IAPAnalyticsTests", dependencies: ["IAPAnalytics", "IAPStore", "IAPTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(name: "IAPReportsTests", dependencies: ["IAPReports"], swiftSettings: swiftSettings),
        .testTarget(
            name: "IAPPipelineTests",
            dependencies: ["IAPPipeline", "IAPFetch", "IAPTestSupport", "IAPTestSigning"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "IAPSimulatorTests",
            dependencies: ["IAPSimulator", "IAPPipeline", "IAPTestSupport", "IAPFormats"],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "iaplensTests", dependencies: ["IAPTestSupport", "IAPStore"], swiftSettings: swiftSettings),
        .testTarget(
            name: "IAPFetchTests",
            dependencies: [
                "IAPFetch", "IAPConsumption", "IAPTestSupport", "IAPPipeline", "IAPStore", "IAPSimulator", "IAPFormats",
                "IAPFinanceFiles",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "IAPTestSupport", "IAPPipeline", "IAPSimulator", "IAPFormats", "IAPVerification", "IAPTestSigning",
                "IAPAnalytics",
                "IAPDecodingChecks",
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
