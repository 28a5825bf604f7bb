import Foundation
import PDFTestSupport

/// The checked-in test PKI and PDF fixtures (Tests/Fixtures/README.md).
enum Fixtures {
    /// The bytes of `Tests/Fixtures/pki/<name>`.
    static func pem(_ name: String) throws -> [UInt8] {
        try bytes("pki", name)
    }

    static func bytes(_ area: String, _ name: String) throws -> [UInt8] {
        let path = TestPaths.fixture(area, name)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Missing(path: path)
        }
        return [UInt8](data)
    }

    struct Missing: Error, CustomStringConvertible {
        var path: String
        var description: String { "missing fixture \(path)" }
    }
}
