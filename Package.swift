// swift-tools-version:6.0
import PackageDescription

let upcoming: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Autograph",
    products: [
        .library(name: "PDFCore", targets: ["PDFCore"]),
        .library(name: "PDFAuthoring", targets: ["PDFAuthoring"]),
        .library(name: "PDFForms", targets: ["PDFForms"]),
        .library(name: "PDFSigning", targets: ["PDFSigning"]),
        .library(name: "PDFAnnotations", targets: ["PDFAnnotations"]),
        .library(name: "PDFGraphics", targets: ["PDFGraphics"]),
        .library(name: "PDFRendering", targets: ["PDFRendering"]),
        .library(name: "PDFSession", targets: ["PDFSession"]),
        .library(name: "PDFViewer", targets: ["PDFViewer"]),
        .library(name: "PDFWeb", targets: ["PDFWeb"]),
        .library(name: "AutographCLI", targets: ["AutographCLI"]),
        .executable(name: "autograph", targets: ["autograph"]),
        .executable(name: "FuzzCore", targets: ["FuzzCore"]),
        .executable(name: "FuzzCodecs", targets: ["FuzzCodecs"]),
        .executable(name: "FuzzWeb", targets: ["FuzzWeb"]),
        .executable(name: "FuzzImages", targets: ["FuzzImages"]),
        .executable(name: "FuzzFonts", targets: ["FuzzFonts"]),
        .executable(name: "FuzzContent", targets: ["FuzzContent"]),
        .executable(name: "FuzzData", targets: ["FuzzData"]),
    ],
    targets: [
        // C libraries from Debian's -dev packages.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(
            name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo-ft", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "COpenJPEG", pkgConfig: "libopenjp2", providers: [.apt(["libopenjp2-7-dev"])]),
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // Its header only: the library is opened when a server starts (PDFWeb/MicroHTTPD).
        .systemLibrary(name: "CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),
        // Its header only: libcurl is opened when the first request is sent (HTTPClient/CurlLibrary).
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CPKCS11", providers: [.apt(["libp11-kit-dev"])]),
        .target(name: "CShims", dependencies: ["CJPEG"]),

        // Every libcrypto call, behind `package` wrappers; internal to the package, not a product
        // (ARCHITECTURE.md, "Crypto").
        .target(name: "AutographCrypto", dependencies: ["COpenSSL"], swiftSettings: upcoming),
        // The HTTP client on libcurl, behind the `HTTPTransport` protocol; internal to the package, not
        // a product.
        .target(name: "HTTPClient", dependencies: ["CCurl"], swiftSettings: upcoming),
        .target(name: "PKCS11", dependencies: ["CPKCS11"], swiftSettings: upcoming),
        // JSON values for the CLI's and the web API's documents; depends on nothing.
        .target(name: "AutographJSON", swiftSettings: upcoming),
        // The PDF file: objects, syntax, cross-reference, document, writing, filters, encryption.
        .target(
            name: "PDFCore",
            dependencies: ["CZlib", "AutographCrypto", "CShims"],
            swiftSettings: upcoming
        ),
        // Font files and encodings: TrueType/OpenType reading and subsetting, the standard 14 fonts'
        // metrics, the named encodings and glyph lists, installed fonts through fontconfig.
        .target(name: "PDFFonts", dependencies: ["PDFCore", "CFontconfig"], swiftSettings: upcoming),
        // Image codecs, bytes in and pixels out: JPEG (libjpeg), JPEG 2000 (OpenJPEG), CCITT, JBIG2, PNG.
        .target(
            name: "PDFImageCodecs", dependencies: ["PDFCore", "CShims", "COpenJPEG"], swiftSettings: upcoming),
        // Writing new PDF content: content streams, embedded fonts, image XObjects, ink, text layout,
        // whole documents (PDFBuilder).
        .target(
            name: "PDFAuthoring", dependencies: ["PDFCore", "PDFFonts", "PDFImageCodecs"], swiftSettings: upcoming),
        .target(
            name: "PDFForms", dependencies: ["PDFCore", "PDFFonts", "PDFAuthoring", "AutographJSON"],
            swiftSettings: upcoming),
        .target(
            name: "PDFSigning",
            dependencies: [
                "PDFCore", "PDFFonts", "PDFAuthoring", "PDFForms", "AutographJSON", "AutographCrypto", "CShims",
                "HTTPClient", "PKCS11",
            ],
            swiftSettings: upcoming),
        .target(
            name: "PDFAnnotations", dependencies: ["PDFCore", "PDFFonts", "PDFAuthoring", "PDFForms"],
            swiftSettings: upcoming),
        // Content streams to display lists; no C (ARCHITECTURE.md).
        .target(
            name: "PDFGraphics", dependencies: ["PDFCore", "PDFFonts", "PDFImageCodecs"], swiftSettings: upcoming),
        .target(
            name: "PDFRendering",
            dependencies: [
                "PDFGraphics", "PDFFonts", "PDFImageCodecs", "PDFCore", "CCairo", "CFreeType", "CLCMS2", "CShims",
            ],
            swiftSettings: upcoming),
        // The WYSIWYS / signo workflow: an actor per document, events, the encrypted store.
        .target(
            name: "PDFSession",
            dependencies: [
                "PDFCore", "PDFAuthoring", "PDFForms", "PDFSigning", "PDFAnnotations", "PDFGraphics",
                "PDFRendering", "PDFViewer", "CSQLite", "AutographCrypto",
            ],
            swiftSettings: upcoming),
        // Layouts, spreads, viewport, coordinate conversion, hit testing, modes; no C (ARCHITECTURE.md).
        .target(
            name: "PDFViewer", dependencies: ["PDFCore", "PDFAuthoring", "PDFAnnotations"], swiftSettings: upcoming),
        // Writes the Swift source embedding Web/ in PDFWeb, at build time (a tool, never shipped).
        .executableTarget(name: "EmbedWebAssets", path: "Sources/EmbedWebAssets"),
        .plugin(name: "EmbedWebAssetsPlugin", capability: .buildTool(), dependencies: ["EmbedWebAssets"]),
        // `autograph serve`: HTTP on libmicrohttpd, the JSON API over the session, the web viewer's files.
        .target(
            name: "PDFWeb",
            dependencies: [
                "PDFSession", "PDFViewer", "PDFRendering", "PDFGraphics", "PDFSigning", "PDFForms", "PDFAnnotations",
                "PDFAuthoring", "PDFCore", "AutographJSON", "AutographCrypto", "HTTPClient", "CMicroHTTPD", "CShims",
            ],
            swiftSettings: upcoming, plugins: ["EmbedWebAssetsPlugin"]),
        .target(
            name: "AutographCLI",
            dependencies: [
                "PDFCore", "PDFAuthoring", "PDFForms", "PDFSigning", "PDFAnnotations", "PDFGraphics", "PDFRendering",
                "PDFSession", "PDFWeb", "AutographJSON", "CShims",
            ],
            swiftSettings: upcoming),
        .executableTarget(name: "autograph", dependencies: ["AutographCLI"], swiftSettings: upcoming),

        // Builds PDFs for tests and benchmarks; never shipped.
        .target(
            name: "PDFTestSupport",
            dependencies: ["PDFCore", "PDFFonts", "PDFAuthoring", "AutographJSON", "AutographCrypto", "PKCS11"],
            swiftSettings: upcoming),
        // libFuzzer entry for the parser, xref and filters (see `make fuzz`).
        .executableTarget(name: "FuzzCore", dependencies: ["PDFCore", "CShims"], swiftSettings: upcoming),
        .executableTarget(
            name: "FuzzCodecs", dependencies: ["PDFImageCodecs", "PDFCore", "CShims"], swiftSettings: upcoming),
        // libFuzzer entry for the web server: requests through the policy and the router, in process.
        .executableTarget(
            name: "FuzzWeb", dependencies: ["PDFWeb", "PDFSession", "PDFSigning", "PDFCore", "CShims"],
            swiftSettings: upcoming),
        // libFuzzer entries for the other readers of untrusted bytes (see `make fuzz`): image formats
        // (DCT, JPX, PNG), font programs and CMaps, content streams and functions, DER/CMS, XFDF and JSON.
        .executableTarget(
            name: "FuzzImages", dependencies: ["PDFImageCodecs", "PDFCore", "CShims"], swiftSettings: upcoming),
        .executableTarget(
            name: "FuzzFonts", dependencies: ["PDFRendering", "PDFCore", "CShims"], swiftSettings: upcoming),
        .executableTarget(
            name: "FuzzContent", dependencies: ["PDFRendering", "PDFCore", "CShims"], swiftSettings: upcoming),
        .executableTarget(name: "FuzzData", dependencies: ["PDFSigning", "PDFCore", "CShims"], swiftSettings: upcoming),
        // A process the store's crash test kills in the middle of saves (see StoreCrashTests).
        .executableTarget(name: "StoreCrashProbe", dependencies: ["PDFSession"], swiftSettings: upcoming),

        .testTarget(
            name: "AutographCryptoTests",
            dependencies: ["AutographCrypto", "PDFCore", "PDFSigning", "PDFSession", "PDFTestSupport"],
            swiftSettings: upcoming),
        .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient", "PDFTestSupport"], swiftSettings: upcoming),
        .testTarget(
            name: "PDFFontsTests", dependencies: ["PDFFonts", "PDFAuthoring", "PDFCore", "PDFTestSupport"],
            swiftSettings: upcoming),
        .testTarget(
            name: "PDFImageCodecsTests", dependencies: ["PDFImageCodecs", "PDFCore", "PDFTestSupport"],
            swiftSettings: upcoming),
        .testTarget(
            name: "PDFAuthoringTests", dependencies: ["PDFAuthoring", "PDFFonts", "PDFCore", "PDFTestSupport"],
            swiftSettings: upcoming),
        .testTarget(
            name: "PDFCoreTests", dependencies: ["PDFAuthoring", "PDFFonts", "PDFCore", "PDFTestSupport"],
            swiftSettings: upcoming),
        .testTarget(
            name: "PDFFormsTests",
            dependencies: ["PDFAuthoring", "AutographJSON", "PDFForms", "PDFCore", "PDFTestSupport"],
            swiftSettings: upcoming),
        .testTarget(
            name: "PDFSigningTests",
            dependencies: [
                "PDFAuthoring", "PDFSigning", "PDFCore", "PDFForms", "PDFTestSupport", "HTTPClient", "PKCS11",
            ],
            swiftSettings: upcoming),
        .testTarget(
            name: "PDFAnnotationsTests",
            dependencies: [
                "PDFAuthoring", "PDFImageCodecs", "PDFAnnotations", "PDFCore", "PDFForms", "PDFTestSupport",
            ],
            swiftSettings: upcoming),
        .testTarget(
            name: "PDFGraphicsTests",
            dependencies: [
                "PDFAuthoring", "PDFFonts", "PDFImageCodecs", "PDFGraphics", "PDFCore", "PDFForms", "PDFTestSupport",
            ],
            swiftSettings: upcoming),
        .testTarget(
            name: "PDFRenderingTests",
            dependencies: [
                "PDFAuthoring", "PDFFonts", "PDFImageCodecs", "PDFRendering", "PDFGraphics", "PDFCore",
                "PDFTestSupport",
            ],
            swiftSettings: upcoming),
        .testTarget(
            name: "PDFSessionTests",
            dependencies: [
                "PDFAuthoring", "PDFSession", "PDFSigning", "PDFForms", "PDFAnnotations", "PDFCore", "PDFTestSupport",
                "PDFViewer",
            ],
            swiftSettings: upcoming),
        .testTarget(
            name: "PDFViewerTests", dependencies: ["PDFViewer", "PDFCore", "PDFAuthoring", "PDFAnnotations"],
            swiftSettings: upcoming),
        .testTarget(
            name: "PDFWebTests",
            dependencies: [
                "PDFForms", "PDFGraphics", "PDFViewer", "HTTPClient", "AutographCrypto",
                "AutographJSON", "PDFAuthoring", "PDFWeb", "PDFSession", "PDFSigning", "PDFCore", "PDFTestSupport",
            ],
            swiftSettings: upcoming),
        .testTarget(
            name: "AutographCLITests",
            dependencies: [
                "PDFAnnotations", "PDFWeb",
                "AutographJSON", "PDFAuthoring",
                "AutographCLI", "PDFCore", "PDFForms", "PDFRendering", "PDFSession", "PDFSigning", "PDFTestSupport",
            ],
            swiftSettings: upcoming
        ),
    ],
    swiftLanguageModes: [.v6]
)
