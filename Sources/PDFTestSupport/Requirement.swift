import Foundation
import PDFCore
import PDFFonts
import Synchronization
public import Testing

/// What a test needs from the machine it runs on: the shared corpus, the oracles' programs and
/// Python modules, installed fonts. Tests name it in a trait, so the runner reports them as skipped,
/// with the reason, where it is missing:
///
/// ```swift
/// @Test("…", .enabled(if: Requirement.corpus, "the corpus is absent"))
/// @Suite("…", .enabled(if: Requirement.tools("mutool", "pdftoppm"), "mutool or pdftoppm is not installed"))
/// ```
///
/// A comparison that is only part of a test (the test's own checks stand without it) asks
/// ``check(_:orWarn:sourceLocation:)`` instead, which records a warning when it is left out.
///
/// Each program, module and font is looked up once per process.
public enum Requirement {
    /// The shared corpus of real-world PDFs (``TestPaths/corpus``: `../shared/corpus`, or the
    /// directory `AUTOGRAPH_CORPUS` names; a path that does not exist makes this false).
    public static var corpus: Bool { TestPaths.corpus != nil }

    /// The corpus with its catalog, `dev-catalog.tsv` (each file's classes, fonts, image filters).
    public static var corpusCatalog: Bool { corpusFile("dev-catalog.tsv") }

    /// The file `name` (a path relative to the corpus root) in the corpus.
    public static func corpusFile(_ name: String) -> Bool {
        guard let root = TestPaths.corpus else { return false }
        return FileManager.default.fileExists(atPath: root + "/" + name)
    }

    /// `program` on the PATH (as ``Oracle/run(_:_:timeout:)`` looks it up).
    public static func tool(_ program: String) -> Bool {
        cached("tool " + program) { Oracle.which(program) != nil }
    }

    /// Every one of `programs` on the PATH.
    public static func tools(_ programs: String...) -> Bool { programs.allSatisfy(tool) }

    /// python3 imports `module` (`PIL.ImageCms`, `fontTools.ttLib`, `cryptography` …).
    public static func python(_ module: String) -> Bool {
        cached("python " + module) { (try? Oracle.run("python3", ["-c", "import " + module]))?.status == 0 }
    }

    /// pyHanko's library through python3, which the verdict scripts (`Tests/Scripts/pyhanko_verdict.py`,
    /// `scripts/pyhanko-modlevel.py`) import.
    public static var pyHanko: Bool { python("pyhanko.sign.validation") }

    /// pyHanko's command-line tool (PyPI's pyhanko-cli): the `pyhanko` script on the PATH, or its
    /// module through python3 (``SignatureOracle/runPyhanko(_:)``).
    public static var pyHankoCLI: Bool { tool("pyhanko") || python("pyhanko.cli") }

    /// A file at the absolute `path` (an installed font, poppler-data's CMaps …).
    public static func file(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// An installed font that covers every character of `text`, as ``SystemFonts/font(covering:family:)``
    /// finds it through fontconfig.
    public static func systemFont(covering text: String, family: String? = nil) -> Bool {
        cached("font \(family ?? "") \(text)") { SystemFonts.font(covering: text, family: family) != nil }
    }

    /// An installed font with TrueType outlines (a `glyf` table) that covers every character of
    /// `text`, the best fontconfig finds for `family`.
    public static func trueTypeFont(covering text: String, family: String? = nil) -> Bool {
        cached("truetype \(family ?? "") \(text)") {
            guard let file = SystemFonts.font(covering: text, family: family),
                let bytes = FileManager.default.contents(atPath: file.path),
                let font = try? TrueTypeFile(bytes: Array(bytes), index: file.index)
            else { return false }
            return font.outlineFormat == .trueType
        }
    }

    /// An executable product of this package built beside the test binary (``TestPaths/builtProduct(_:)``).
    public static func builtProduct(_ name: String) -> Bool { TestPaths.builtProduct(name) != nil }

    /// Whether `condition` holds, for a comparison that is only part of a test; when it does not, a
    /// warning saying what is left out (`reason`) is recorded on the running test, so the runner
    /// shows it while the test's own checks still run and decide whether it passes.
    ///
    /// ```swift
    /// guard Requirement.check(Requirement.tool("mutool"), orWarn: "mutool is not installed; …") else { return }
    /// ```
    @discardableResult
    public static func check(
        _ condition: Bool, orWarn reason: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        if !condition { Issue.record(Comment(rawValue: reason), severity: .warning, sourceLocation: sourceLocation) }
        return condition
    }

    private static let answers = Mutex<[String: Bool]>([:])

    /// The answer for `key`, found by `lookup` the first time. Two tests asking at once may both
    /// look it up; they get the same answer.
    private static func cached(_ key: String, _ lookup: () -> Bool) -> Bool {
        if let known = answers.withLock({ $0[key] }) { return known }
        let answer = lookup()
        answers.withLock { $0[key] = answer }
        return answer
    }
}
