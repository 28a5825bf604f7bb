// swift-tools-version:6.0
import PackageDescription

// The benchmark harness: a nested package so `swift test` at the root never builds it.
// `swift build -c release --package-path Benchmarks` builds `autograph-bench` and, through the
// dependency below, the root package's `autograph` CLI into this package's `.build/release/`.
let package = Package(
    name: "AutographBenchmarks",
    products: [
        .executable(name: "autograph-bench", targets: ["autograph-bench"])
    ],
    dependencies: [
        .package(name: "Autograph", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "autograph-bench",
            dependencies: [
                .product(name: "PDFCore", package: "Autograph"),
                .product(name: "autograph", package: "Autograph"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
