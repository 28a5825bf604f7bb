import Testing

@testable import PDFCore

/// The tokens of PDF syntax (ISO 32000-2 §7.2, §7.3), read liberally as qpdf and pdf.js read them.
@Suite("Lexer: tokens of PDF syntax")
struct LexerTests {
    /// Every token of `bytes` up to `.end`, and the names' stray `#` count at the end.
    static func lex(_ bytes: [UInt8]) -> (tokens: [Lexer.Token], strayHashes: Int) {
        bytes.withUnsafeBytes { buffer in
            var lexer = Lexer(buffer)
            var tokens: [Lexer.Token] = []
            // Every token consumes at least one byte, so more tokens than bytes means a loop.
            while tokens.count <= bytes.count {
                let token = lexer.next()
                if token == .end { break }
                tokens.append(token)
            }
            return (tokens, lexer.strayHashes)
        }
    }

    static func tokens(_ text: String) -> [Lexer.Token] { lex(Array(text.utf8)).tokens }

    /// The single token of `text`.
    static func token(_ text: String) -> Lexer.Token? {
        let all = tokens(text)
        return all.count == 1 ? all[0] : nil
    }

    static func real(_ token: Lexer.Token?) -> PDFReal? {
        if case .real(let real)? = token { return real }
        return nil
    }

    static func string(_ token: Lexer.Token?) -> PDFString? {
        if case .string(let string)? = token { return string }
        return nil
    }

    static func name(_ token: Lexer.Token?) -> PDFName? {
        if case .name(let name)? = token { return name }
        return nil
    }

    // MARK: Numbers (§7.3.3)

    @Test(
        "integers are read with their sign, leading zeros and the pdf.js repairs of stray signs",
        arguments: [
            ("42", 42), ("0", 0), ("+5", 5), ("-0", 0), ("-17", -17), ("007", 7), ("-007", -7),
            ("--5", -5), ("+-3", -3), ("-", 0), ("+", 0),
            ("123456789012345678", 123_456_789_012_345_678), ("999999999999999999", 999_999_999_999_999_999),
        ] as [(String, Int)]
    )
    func integers(text: String, expected: Int) {
        #expect(Self.token(text) == .integer(expected))
    }

    @Test(
        "reals are read with their value and keep the literal they were written with",
        arguments: [
            (".5", 0.5), ("-.002", -0.002), ("4.", 4.0), ("-4.", -4.0), ("3.14159", 3.14159), ("+.25", 0.25),
            ("123.456", 123.456), ("0.000001", 0.000001), ("--1.5", -1.5), (".", 0.0), ("-.", 0.0),
            ("1234567890123456789", 1_234_567_890_123_456_789.0), ("-99999999999999999999", -1e20),
            ("9223372036854775807", 9_223_372_036_854_775_807.0),
            ("12345678901234567890.5", 12_345_678_901_234_567_890.5),
        ] as [(String, Double)]
    )
    func reals(text: String, expected: Double) throws {
        let real = try #require(Self.real(Self.token(text)))
        #expect(real.value == expected)
        #expect(real.literal == text)
    }

    @Test("an integer of 19 or more digits becomes a real rather than overflowing")
    func longIntegerIsReal() throws {
        #expect(Self.token("999999999999999999") == .integer(999_999_999_999_999_999))
        let real = try #require(Self.real(Self.token("99999999999999999999999")))
        #expect(real.value == Double("99999999999999999999999"))
        #expect(real.value > 9.99e22 && real.value < 1.001e23)
    }

    @Test("a real with more than 22 fraction digits keeps its magnitude")
    func manyFractionDigits() throws {
        let real = try #require(Self.real(Self.token("0.00000000000000000000001")))
        #expect(abs(real.value - 1e-23) < 1e-30)

    }

    @Test("a number stops at the first byte that cannot continue it")
    func numberFollowedByJunk() {
        #expect(Self.tokens("12-3") == [.integer(12), .integer(-3)])
        #expect(Self.tokens("4.5.6") == [.real(PDFReal(4.5)), .real(PDFReal(0.6))])
        #expect(Self.tokens("7/Name") == [.integer(7), .name("Name")])
        #expect(Self.tokens("1(s)") == [.integer(1), .string(PDFString(bytes: [0x73]))])
    }

    // MARK: Names (§7.3.5)

    @Test(
        "names resolve #xx escapes; a # without two hex digits is kept and counted",
        arguments: [
            ("/Type", "Type", 0), ("/A#20B", "A B", 0), ("/#2Fslash", "/slash", 0), ("/lower#2fhex", "lower/hex", 0),
            ("/A#23B", "A#B", 0), ("/A#2", "A#2", 1), ("/A#GG", "A#GG", 1), ("/a#", "a#", 1),
            ("/#", "#", 1), ("/x#4", "x#4", 1), ("/", "", 0), ("/1.5", "1.5", 0), ("/A;B*C", "A;B*C", 0),
        ] as [(String, String, Int)]
    )
    func names(text: String, expected: String, strayHashes: Int) {
        let result = Self.lex(Array(text.utf8))
        #expect(result.tokens == [.name(PDFName(expected))])
        #expect(result.strayHashes == strayHashes)
    }

    @Test("a name ends at a delimiter or white space")
    func nameBoundaries() {
        #expect(Self.tokens("/Type/Page") == [.name("Type"), .name("Page")])
        #expect(Self.tokens("/A[/B]") == [.name("A"), .arrayOpen, .name("B"), .arrayClose])
        #expect(Self.tokens("/A(x)") == [.name("A"), .string(PDFString(bytes: [0x78]))])
        #expect(Self.tokens("/A%c\n/B") == [.name("A"), .name("B")])
        #expect(Self.tokens("/A\0/B") == [.name("A"), .name("B")])
    }

    @Test("a name whose bytes are not UTF-8 keeps its exact bytes and is marked raw")
    func rawByteNames() throws {
        let escaped = try #require(Self.name(Self.token("/#82l#82r")))
        #expect(escaped.isRawBytes)
        #expect(escaped.bytes == [0x82, 0x6C, 0x82, 0x72])
        #expect(PDFSerializer.bytes(of: .name(escaped)) == Array("/#82l#82r".utf8))

        let latin1 = try #require(Self.name(Self.lex([0x2F, 0x41, 0xE9, 0x42]).tokens.first))
        #expect(latin1.isRawBytes)
        #expect(latin1.bytes == [0x41, 0xE9, 0x42])

        let utf8 = try #require(Self.name(Self.token("/caf#C3#A9")))
        #expect(!utf8.isRawBytes)
        #expect(utf8.string == "café")
        #expect(utf8.bytes == [0x63, 0x61, 0x66, 0xC3, 0xA9])
    }

    // MARK: Strings (§7.3.4)

    @Test(
        "literal strings resolve every escape, keep balanced parentheses and read an end of line as LF",
        arguments: [
            (#"()"#, []),
            (#"(abc)"#, [0x61, 0x62, 0x63]),
            (#"(\n\r\t\b\f\(\)\\)"#, [0x0A, 0x0D, 0x09, 0x08, 0x0C, 0x28, 0x29, 0x5C]),
            (#"(\101\7\53\0053)"#, [0x41, 0x07, 0x2B, 0x05, 0x33]),
            (#"(\1a\12b)"#, [0x01, 0x61, 0x0A, 0x62]),
            (#"(\777)"#, [0xFF]),
            (#"(\8\9)"#, [0x38, 0x39]),
            ("(ab\\\ncd)", [0x61, 0x62, 0x63, 0x64]),
            ("(ab\\\r\ncd)", [0x61, 0x62, 0x63, 0x64]),
            ("(ab\\\rcd)", [0x61, 0x62, 0x63, 0x64]),
            (#"(\q\%\/)"#, [0x71, 0x25, 0x2F]),
            ("(a(b(c))d)", [0x61, 0x28, 0x62, 0x28, 0x63, 0x29, 0x29, 0x64]),
            (#"(a\(b)"#, [0x61, 0x28, 0x62]),
            ("(a\rb)", [0x61, 0x0A, 0x62]),
            ("(a\r\nb)", [0x61, 0x0A, 0x62]),
            ("(a\nb)", [0x61, 0x0A, 0x62]),
            ("(a\r\rb)", [0x61, 0x0A, 0x0A, 0x62]),
            ("(a\n\rb)", [0x61, 0x0A, 0x0A, 0x62]),
            ("(100% <not> [a] /name)", Array("100% <not> [a] /name".utf8)),
            ("(unterminated", Array("unterminated".utf8)),
            ("(trailing backslash\\", Array("trailing backslash".utf8)),
        ] as [(String, [UInt8])]
    )
    func literalStrings(text: String, expected: [UInt8]) throws {
        let string = try #require(Self.string(Self.token(text)))
        #expect(string.bytes == expected)
        #expect(!string.isHex)
    }

    @Test(
        "hex strings skip white space and invalid characters and pad an odd final digit with 0",
        arguments: [
            ("<48656c6c6f>", Array("Hello".utf8)),
            ("<48 65\n6C\t6c\r6F>", Array("Hello".utf8)),
            ("<901FA>", [0x90, 0x1F, 0xA0]),
            ("<A>", [0xA0]),
            ("<>", []),
            ("<4G8Z>", [0x48]),
            ("<00ff>", [0x00, 0xFF]),
            ("<4142", [0x41, 0x42]),
        ] as [(String, [UInt8])]
    )
    func hexStrings(text: String, expected: [UInt8]) throws {
        let string = try #require(Self.string(Self.token(text)))
        #expect(string.bytes == expected)
        #expect(string.isHex)
    }

    @Test("a string is followed by the next token at once")
    func stringBoundaries() {
        #expect(
            Self.tokens("(a)(b)<63>") == [
                .string(PDFString(bytes: [0x61])), .string(PDFString(bytes: [0x62])), .string(PDFString(bytes: [0x63])),
            ])
    }

    // MARK: Comments, keywords and delimiters

    @Test("comments run to the end of the line and are skipped like white space")
    func comments() {
        #expect(Self.tokens("% a comment\n42 %another\r/Name % trailing") == [.integer(42), .name("Name")])
        #expect(Self.tokens("[1%c]\n2]") == [.arrayOpen, .integer(1), .integer(2), .arrayClose])
        #expect(Self.tokens("%only a comment").isEmpty)
        #expect(Self.tokens(" \t\r\n\u{0C}\0").isEmpty)
    }

    @Test(
        "bare words are keywords equal to the core's constants",
        arguments: [
            ("true", Keyword.true), ("false", .false), ("null", .null), ("R", .r), ("obj", .obj),
            ("endobj", .endobj), ("stream", .stream), ("endstream", .endstream), ("xref", .xref),
            ("trailer", .trailer), ("startxref", .startxref),
        ] as [(String, Keyword)]
    )
    func keywords(text: String, expected: Keyword) {
        #expect(Self.token(text) == .keyword(expected))
        #expect(Self.token(text + "x") != .keyword(expected))
    }

    @Test("keywords end at delimiters and a stray ')' is a one-byte keyword")
    func keywordBoundaries() {
        #expect(Self.tokens("endobj<<") == [.keyword(.endobj), .dictionaryOpen])
        #expect(Self.tokens("obj[") == [.keyword(.obj), .arrayOpen])
        #expect(Self.tokens(")") == [.keyword(Keyword(")"))])
        #expect(
            Self.tokens("BT/F1 12 Tf") == [.keyword(Keyword("BT")), .name("F1"), .integer(12), .keyword(Keyword("Tf"))])
    }

    @Test(
        "a keyword describes itself by its text (its first eight bytes and an ellipsis past sixteen)",
        arguments: [
            ("true", "true"), ("R", "R"), ("obj", "obj"), ("endobj", "endobj"), ("endstrea", "endstrea"),
            ("endstream", "endstream"), ("startxref", "startxref"), ("abcdefghijklmnop", "abcdefghijklmnop"),
            ("abcdefghijklmnopq", "abcdefgh…"),
        ] as [(String, String)]
    )
    func keywordDescription(text: String, expected: String) throws {
        guard case .keyword(let keyword)? = Self.token(text) else {
            Issue.record("\(text) is not a keyword")
            return
        }
        #expect(keyword.description == expected)
        #expect(keyword.length == text.utf8.count)
    }

    @Test("two different keywords of the same length are not equal even when they share eight bytes")
    func longKeywordsAreDistinct() {
        #expect(Keyword("endstreax") != Keyword.endstream)
        #expect(Self.token("startxreF") != .keyword(.startxref))

    }

    @Test("delimiters of dictionaries, arrays and procedures are their own tokens")
    func delimiters() {
        #expect(
            Self.tokens("<< /A [1 2] >> { }") == [
                .dictionaryOpen, .name("A"), .arrayOpen, .integer(1), .integer(2), .arrayClose, .dictionaryClose,
                .braceOpen, .braceClose,
            ])
        #expect(
            Self.tokens("<<<</A 1>>>>") == [
                .dictionaryOpen, .dictionaryOpen, .name("A"), .integer(1), .dictionaryClose, .dictionaryClose,
            ])
        #expect(Self.tokens("[[]]") == [.arrayOpen, .arrayOpen, .arrayClose, .arrayClose])
        #expect(Self.tokens(">") == [.dictionaryClose])
    }

    // MARK: Look-ahead helpers

    @Test(
        "peekReferenceTail finds 'g R' after an object number without moving",
        arguments: [
            (" 0 R", 0, 4), (" 12 R]", 12, 5), ("\n0\r\nR", 0, 5), (" 0 R/Next", 0, 4), (" 65535 R", 65535, 8),
            (" 0 R%c", 0, 4),
        ] as [(String, Int, Int)]
    )
    func referenceTail(text: String, generation: Int, end: Int) throws {
        try Array(text.utf8).withUnsafeBytes { buffer in
            let lexer = Lexer(buffer)
            let tail = try #require(lexer.peekReferenceTail())
            #expect(tail.generation == generation)
            #expect(tail.end == end)
            #expect(lexer.position == 0)
        }
    }

    @Test(
        "peekReferenceTail is nil when the bytes are not 'g R' followed by a delimiter",
        arguments: [" 0 Rx", " 0 obj", " 0", " 0 ", " R", " 0R", " x R", " -1 R", " 0.0 R", "", " 12345678901 R"]
    )
    func notAReferenceTail(text: String) {
        Array(text.utf8).withUnsafeBytes { buffer in
            #expect(Lexer(buffer).peekReferenceTail() == nil)
        }
    }

    @Test(
        "readUnsigned reads digits at the position only",
        arguments: [
            ("123 ", 19, 123, 3), ("0", 19, 0, 1), ("007x", 19, 7, 3),
            ("999999999999999999", 19, 999_999_999_999_999_999, 18),
            ("12345", 5, 12345, 5),
        ] as [(String, Int, Int, Int)]
    )
    func readUnsigned(text: String, maxDigits: Int, expected: Int, position: Int) {
        Array(text.utf8).withUnsafeBytes { buffer in
            var lexer = Lexer(buffer)
            #expect(lexer.readUnsigned(maxDigits: maxDigits) == expected)
            #expect(lexer.position == position)
        }
    }

    @Test(
        "readUnsigned is nil without a digit (white space is not skipped) or with too many digits",
        arguments: [("abc", 19), (" 12", 19), ("", 19), ("-1", 19), ("123456", 5), ("12345678901", 10)]
            as [(String, Int)]
    )
    func readUnsignedFails(text: String, maxDigits: Int) {
        Array(text.utf8).withUnsafeBytes { buffer in
            var lexer = Lexer(buffer)
            #expect(lexer.readUnsigned(maxDigits: maxDigits) == nil)
        }
    }

    @Test("readUnsigned refuses 19 digits (it cannot overflow) and leaves the position unchanged")
    func readUnsignedNineteenDigits() {
        Array("9223372036854775807".utf8).withUnsafeBytes { buffer in
            var lexer = Lexer(buffer)
            #expect(lexer.readUnsigned(maxDigits: 19) == nil)
            #expect(lexer.position == 0)
        }
    }

    @Test("readUnsigned does not trap on 19 digits above Int.max")
    func readUnsignedOverflow() async {
        await #expect(processExitsWith: .success) {
            let text = Array("9999999999999999999 0 obj".utf8)
            text.withUnsafeBytes { buffer in
                var lexer = Lexer(buffer)
                _ = lexer.readUnsigned()
            }
        }

    }

    @Test(
        "hasKeyword matches a whole word at the position or at an offset",
        arguments: [
            ("endobj", 0, true), ("endobj ", 0, true), ("endobj<<", 0, true), ("endobj%", 0, true),
            ("endobjx", 0, false), ("endob", 0, false), ("xendobj", 0, false), ("xendobj", 1, true),
            ("1 0 endobj\n", 4, true), ("endobj", 1, false), ("endobj", -1, false), ("endobj", 7, false),
        ] as [(String, Int, Bool)]
    )
    func hasKeyword(text: String, offset: Int, expected: Bool) {
        Array(text.utf8).withUnsafeBytes { buffer in
            let lexer = Lexer(buffer)
            #expect(lexer.hasKeyword("endobj", at: offset) == expected)
        }
    }

    @Test("hasKeyword without an offset looks at the current position")
    func hasKeywordAtPosition() {
        Array("1 0 obj".utf8).withUnsafeBytes { buffer in
            var lexer = Lexer(buffer)
            #expect(!lexer.hasKeyword("obj"))
            lexer.position = 4
            #expect(lexer.hasKeyword("obj"))
        }
    }

    // MARK: Robustness

    static let everyKind = Array(
        """
        %PDF-1.7\n1 0 obj<</I -42/R -.5/S(a\\(b\\)\\101\r\n)/H<48 65 6>/N/A#20B#2/Arr[1 0 R true false null{}]
        /D<<>>>>stream\r\n\0\u{FF}endstream endobj
        """.utf8)

    @Test("every prefix of a token-rich input lexes to the end, with each token moving forward")
    func truncationSweep() {
        for length in 0...Self.everyKind.count {
            let prefix = Array(Self.everyKind[..<length])
            prefix.withUnsafeBytes { buffer in
                var lexer = Lexer(buffer)
                var steps = 0
                while true {
                    let before = lexer.position
                    if lexer.next() == .end { break }
                    #expect(lexer.position > before, "no progress at \(before) in a prefix of \(length)")
                    steps += 1
                    if steps > length { break }
                }
                #expect(steps <= length)
                #expect(lexer.position <= length)
            }
        }
    }

    @Test("every single byte and pair of bytes lexes without trapping")
    func everyBytePair() {
        var tokenCount = 0
        for first in 0...255 {
            for second in [0x00, 0x23, 0x28, 0x29, 0x2F, 0x3C, 0x3E, 0x5C, 0x25, 0x30, 0x2E, 0x2D, 0x0D, 0xFF] {
                let result = Self.lex([UInt8(first), UInt8(second)])
                #expect(result.tokens.count <= 2)
                tokenCount += result.tokens.count
            }
        }
        #expect(tokenCount > 256)
    }
}
