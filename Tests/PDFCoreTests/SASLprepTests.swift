import FoundationEssentials
import Testing

@testable import PDFCore

/// SASLprep (RFC 4013) of revision 6 passwords (ISO 32000-2 §7.6.4.3.3) and the NFKC normalizer behind it.
@Suite("SASLprep and NFKC")
struct SASLprepTests {
    @Test(
        "SASLprep gives the RFC 4013 §3 examples' outputs",
        arguments: [
            ("I\u{00AD}X", "IX"),
            ("user", "user"),
            ("USER", "USER"),
            ("\u{00AA}", "a"),
            ("\u{2168}", "IX"),
            ("\u{0007}", nil),
            ("\u{0627}\u{0031}", nil),
        ] as [(String, String?)]
    )
    func rfcExamples(input: String, expected: String?) {
        #expect(SASLprep.prepare(input) == expected)
    }

    @Test("SASLprep maps soft hyphen away and ª to a, as in pdf.js's test")
    func pdfJSCase() {
        #expect(SASLprep.prepare("S\u{00AA}SL\u{00AD}prep") == "SaSLprep")
    }

    @Test(
        "SASLprep maps, normalizes, prohibits and checks bidi",
        arguments: [
            ("", ""),
            ("pass word", "pass word"),
            ("a\u{00A0}b\u{3000}c", "a b c"),
            ("a\u{2003}b", "a b"),
            ("a\u{200B}b", "a b"),
            ("a\u{200D}b\u{FE0F}", "ab"),
            ("\u{FB01}ne", "fine"),
            ("\u{00C5}", "\u{00C5}"),
            ("A\u{030A}", "\u{00C5}"),
            ("\u{212B}", "\u{00C5}"),
            ("\u{1100}\u{1161}\u{11A8}", "\u{AC01}"),
            ("caf\u{00E9}", "caf\u{00E9}"),
            ("\u{0627}\u{0628}", "\u{0627}\u{0628}"),
            ("\u{0627}1\u{0628}", "\u{0627}1\u{0628}"),
            ("\u{05D0}\u{05B7}\u{05D1}", "\u{05D0}\u{05B7}\u{05D1}"),
            ("\u{0221}", "\u{0221}"),
            ("a\u{0340}", "\u{00E0}"),
            ("\u{0627}a\u{0628}", nil),
            ("\u{0627}1", nil),
            ("1\u{0627}", nil),
        ] as [(String, String?)]
    )
    func profileRules(input: String, expected: String?) {
        #expect(SASLprep.prepare(input) == expected)
    }

    @Test(
        "SASLprep rejects a character of each prohibited table (C.2.1, C.2.2, C.3 to C.9)",
        arguments: [
            0x0000, 0x0007, 0x007F, 0x0085, 0x06DD, 0x2028, 0x1D173, 0xE000, 0xF0000, 0x10FFFD, 0xFDD0, 0xFFFE,
            0x1FFFF, 0x10FFFF, 0xFFF9, 0xFFFD, 0x2FF0, 0x2FFB, 0x200E, 0x200F, 0x202E, 0x206A, 0xE0001, 0xE0030,
        ] as [UInt32]
    )
    func prohibited(value: UInt32) throws {
        // Noncharacters cannot be written in string literals, so the scalar is built at run time.
        let scalar = try #require(Unicode.Scalar(value))
        #expect(SASLprep.isProhibited(value))
        #expect(SASLprep.prepare("a" + String(Character(scalar)) + "b") == nil)
    }

    @Test(
        "NFKC normalizes decompositions, reorders marks and composes",
        arguments: [
            ("a\u{0323}\u{0302}", "\u{1EAD}"),
            ("a\u{0302}\u{0323}", "\u{1EAD}"),
            ("\u{1100}\u{1161}\u{11A8}", "\u{AC01}"),
            ("\u{AC00}\u{11A8}", "\u{AC01}"),
            ("\u{AC01}", "\u{AC01}"),
            ("\u{FB01}", "fi"),
            ("\u{2460}", "1"),
            ("\u{00C5}\u{0301}", "\u{01FA}"),
            ("\u{1E9B}\u{0323}", "\u{1E69}"),
            ("\u{0344}", "\u{0308}\u{0301}"),
            ("\u{0958}", "\u{0915}\u{093C}"),
            ("\u{0301}a", "\u{0301}a"),
            ("e\u{0301}\u{0301}", "\u{00E9}\u{0301}"),
            (
                "\u{FDFA}",
                "\u{0635}\u{0644}\u{0649} \u{0627}\u{0644}\u{0644}\u{0647} \u{0639}\u{0644}\u{064A}\u{0647} "
                    + "\u{0648}\u{0633}\u{0644}\u{0645}"
            ),
            ("plain ASCII\u{0001}\u{009F}", "plain ASCII\u{0001}\u{009F}"),
        ] as [(String, String)]
    )
    func nfkcExamples(input: String, expected: String) {
        #expect(UnicodeNFKC.normalize(input).unicodeScalars.elementsEqual(expected.unicodeScalars))
    }

    @Test("NFKC matches Python's unicodedata on the fixture cases")
    func nfkcConformance() throws {
        let cases = try Self.loadNFKCCases()
        #expect(cases.count > 5000)
        var failures: [String] = []
        for testCase in cases {
            let actual = Array(UnicodeNFKC.normalize(testCase.input).unicodeScalars)
            if !actual.elementsEqual(testCase.expected.unicodeScalars) {
                failures.append(
                    "\(Self.hex(testCase.input.unicodeScalars)) -> \(Self.hex(actual)), "
                        + "expected \(Self.hex(testCase.expected.unicodeScalars))")
            }
        }
        let sample = failures.prefix(20).joined(separator: "\n")
        #expect(failures.isEmpty, "\(failures.count) of \(cases.count) cases differ:\n\(sample)")
    }

    @Test("NFKC leaves strings below U+00A0 alone and is idempotent on the fixture outputs")
    func nfkcStability() throws {
        let ascii = String((0..<0xA0).compactMap { Unicode.Scalar(UInt32($0)).map(Character.init) })
        #expect(UnicodeNFKC.normalize(ascii) == ascii)
        for testCase in try Self.loadNFKCCases() {
            let again = UnicodeNFKC.normalize(testCase.expected)
            #expect(again.unicodeScalars.elementsEqual(testCase.expected.unicodeScalars))
        }
    }

    // MARK: - Fixture

    private struct NFKCCase {
        let input: String
        let expected: String
    }

    /// Reads `Tests/Fixtures/unicode/nfkc-cases.txt` (made by `scripts/gen-unicode-nfkc.py --nfkc-fixture`).
    private static func loadNFKCCases() throws -> [NFKCCase] {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(2)
        let path = (components + ["Fixtures", "unicode", "nfkc-cases.txt"]).joined(separator: "/")
        let text = String(decoding: try Data(contentsOf: URL(filePath: path)), as: UTF8.self)
        var cases: [NFKCCase] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: ";", omittingEmptySubsequences: false)
            guard fields.count == 2 else {
                Issue.record("bad fixture line: \(line)")
                continue
            }
            cases.append(NFKCCase(input: scalars(fields[0]), expected: scalars(fields[1])))
        }
        return cases
    }

    /// The string of the space-separated hex scalars in `field`.
    private static func scalars(_ field: Substring) -> String {
        var view = String.UnicodeScalarView()
        for word in field.split(separator: " ") {
            if let value = UInt32(word, radix: 16), let scalar = Unicode.Scalar(value) {
                view.append(scalar)
            } else {
                Issue.record("bad scalar in fixture: \(word)")
            }
        }
        return String(view)
    }

    private static func hex(_ scalars: some Sequence<Unicode.Scalar>) -> String {
        scalars.map { String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
    }
}
