public import Foundation

/// The inputs a fuzzer found (crashes, leaks, timeouts), kept as regression tests in
/// `Tests/Fixtures/fuzz/<target>/` — one folder per libFuzzer target (`FuzzImages`, `FuzzFonts`,
/// `FuzzContent`, `FuzzData`) — and replayed through the same entry the fuzzer calls.
public enum FuzzFindings {
    /// The names of the inputs kept for `target`, sorted (none when the folder is absent).
    public static func names(_ target: String) -> [String] {
        let folder = TestPaths.fixture("fuzz", target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }

    /// The bytes of input `name` of `target`.
    public static func input(_ target: String, _ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("fuzz", "\(target)/\(name)"))))
    }

    /// Runs `body` on `input` and returns how long it took, in seconds (a finding that was a
    /// timeout must now run well under the fuzzer's 2 s; the tests allow more for a loaded machine).
    public static func seconds(_ body: () -> Void) -> Double {
        let start = ContinuousClock.now
        body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
