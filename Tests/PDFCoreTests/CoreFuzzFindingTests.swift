import Foundation
import PDFTestSupport
import Testing

@testable import PDFCore

/// The inputs kept for `FuzzCore` (`Tests/Fixtures/fuzz/FuzzCore`), replayed through ``CoreFuzzInput``,
/// the fuzzer's own entry: each is read or refused, quickly.
@Suite("FuzzCore inputs")
struct CoreFuzzFindingTests {
    @Test("each kept input is read or refused, quickly", arguments: FuzzFindings.names("FuzzCore"))
    func replay(_ name: String) throws {
        let input = try FuzzFindings.input("FuzzCore", name)
        #expect(FuzzFindings.seconds { CoreFuzzInput.run(input) } < 20)
    }

    /// The object-stream bombs kept as regression inputs (selector 0, a whole document), by file name.
    static let bombs: [(name: String, make: @Sendable () -> [UInt8])] = [
        ("regression-objstm-catalog-last", { ObjectStreamBomb.make(padding: 32 << 20, objectsFirst: false) }),
        (
            "regression-objstm-objects-after-padding",
            {
                ObjectStreamBomb.make(
                    padding: 32 << 20, objectsFirst: true, extra: (0..<200).map { "<< /Index \($0) >>" })
            }
        ),
    ]

    @Test("the object-stream bombs kept are what ObjectStreamBomb makes (AUTOGRAPH_WRITE_SEEDS=1 writes them)")
    func keptBombs() throws {
        for bomb in Self.bombs {
            let input = [0] + bomb.make()
            let path = TestPaths.fixture("fuzz", "FuzzCore/\(bomb.name)")
            if ProcessInfo.processInfo.environment["AUTOGRAPH_WRITE_SEEDS"] != nil {
                try Data(input).write(to: URL(fileURLWithPath: path))
            }
            let kept = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(
                kept == input, "\(path) is not what ObjectStreamBomb makes: run this test with AUTOGRAPH_WRITE_SEEDS=1")
        }
    }
}
