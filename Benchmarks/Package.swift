// swift-tools-version:6.0
import PackageDescription

// The benchmark harness: a nested package so `swift test` at the root never builds it.
// `swift build -c release --package-path Benchmarks` builds `autograph-bench` and, through the
// dependency below, the root package's `autograph` CLI into this package's `.build/release/`.
let package = Package(
    name: "AutographBenchmarks",
    products: [
        .executable(name: "autograph-bench", targets: ["autograph-bench"]),
        .executable(name: "bench-rusage", targets: ["bench-rusage"]),
    ],
    dependencies: [
        .package(name: "Autograph", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "autograph-bench",
            dependencies: [
                .product(name: "PDFCore", package: "Autograph"),
                .product(name: "PDFForms", package: "Autograph"),
                .product(name: "PDFSigning", package: "Autograph"),
                .product(name: "PDFRendering", package: "Autograph"),
                // Not linked: listed so that the CLI measured in step 2 is built beside the bench.
                .product(name: "autograph", package: "Autograph"),
                "bench-rusage",
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ]
        ),
        // Measures a child's wall time and peak RSS from a process small enough not to inflate it.
        .executableTarget(name: "bench-rusage"),
    ],
    swiftLanguageModes: [.v6]
)
