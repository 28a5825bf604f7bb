import Testing

@testable import PDFCore

/// Objects (ISO 32000-2 §7.3) and indirect objects with streams (§7.3.8, §7.3.10) read from bytes.
@Suite("ObjectParser and IndirectObjectParser")
struct ObjectParserTests {
    struct Parsed {
        var object: PDFObject
        var warnings: [PDFWarning]
        /// Where the lexer stopped.
        var position: Int
    }

    static func parse(_ bytes: [UInt8], maxDepth: Int = 256) -> Result<Parsed, PDFError> {
        bytes.withUnsafeBytes { buffer in
            var parser = ObjectParser(buffer, maxDepth: maxDepth)
            do throws(PDFError) {
                let object = try parser.parseObject()
                return .success(Parsed(object: object, warnings: parser.warnings, position: parser.lexer.position))
            } catch {
                return .failure(error)
            }
        }
    }

    static func parse(_ text: String, maxDepth: Int = 256) -> Result<Parsed, PDFError> {
        parse(Array(text.utf8), maxDepth: maxDepth)
    }

    struct Indirect {
        var parsed: ParsedIndirectObject
        /// The stream's data, when the object is a stream.
        var data: [UInt8]?
    }

    static func indirect(_ bytes: [UInt8], length: (PDFReference) -> Int? = { _ in nil }) -> Result<Indirect, PDFError>
    {
        bytes.withUnsafeBytes { buffer in
            do throws(PDFError) {
                let parsed = try IndirectObjectParser.parse(buffer, at: 0, maxDepth: 256, length: length)
                return .success(Indirect(parsed: parsed, data: parsed.streamData.map { Array(buffer[$0]) }))
            } catch {
                return .failure(error)
            }
        }
    }

    static func indirect(_ text: String, length: (PDFReference) -> Int? = { _ in nil }) -> Result<Indirect, PDFError> {
        indirect(Array(text.utf8), length: length)
    }

    static func string(_ text: String, hex: Bool = false) -> PDFObject {
        .string(PDFString(bytes: Array(text.utf8), isHex: hex))
    }

    static func ref(_ number: Int, _ generation: Int = 0) -> PDFObject { .reference(PDFReference(number, generation)) }

    // MARK: Well-formed objects

    @Test("nested arrays and dictionaries are read with every kind of value")
    func nested() throws {
        let text = "<< /Type /Page /Kids [1 0 R [2 (s) <41>] << /N 3 >>] /D << /E << /F [true false -1.5 null] >> >> >>"
        let result = try Self.parse(text).get()
        let expected: PDFObject = .dictionary([
            "Type": .name("Page"),
            "Kids": [Self.ref(1), [2, Self.string("s"), Self.string("A", hex: true)], .dictionary(["N": 3])],
            "D": .dictionary(["E": .dictionary(["F": [true, false, -1.5, .null]])]),
        ])
        #expect(result.object == expected)
        #expect(result.warnings.isEmpty)
        #expect(result.position == text.utf8.count)
    }

    @Test(
        "'n g R' is a reference and two integers without R stay integers",
        arguments: [
            ("[1 0 R]", [ObjectParserTests.ref(1)]),
            ("[1 0]", [1, 0]),
            ("[1 0 R 2]", [ObjectParserTests.ref(1), 2]),
            ("[1 0 2 0 R]", [1, 0, ObjectParserTests.ref(2)]),
            ("[0 0 R]", [ObjectParserTests.ref(0)]),
            ("[12 7 R 13 0 R]", [ObjectParserTests.ref(12, 7), ObjectParserTests.ref(13)]),
            ("[1\n0\r\nR]", [ObjectParserTests.ref(1)]),
            ("[1 0 R/A]", [ObjectParserTests.ref(1), .name("A")]),
            ("[1.0 0 R]", [1.0, 0, .null]),
        ] as [(String, [PDFObject])]
    )
    func references(text: String, expected: [PDFObject]) throws {
        #expect(try Self.parse(text).get().object == .array(expected))
    }

    @Test("a reference at the top level is read whole")
    func topLevelReference() throws {
        let result = try Self.parse("12 7 R endobj").get()
        #expect(result.object == Self.ref(12, 7))
        #expect(result.position == 6)
        #expect(try Self.parse("12 7").get().object == 12)
    }

    @Test("a duplicate dictionary key keeps the later value")
    func duplicateKeys() throws {
        guard case .dictionary(let dictionary) = try Self.parse("<</A 1 /B 2 /A (x)>>").get().object else {
            Issue.record("not a dictionary")
            return
        }
        #expect(dictionary.count == 2)
        #expect(dictionary["A"] == Self.string("x"))
        #expect(dictionary["B"] == 2)
    }

    @Test("a key with a null value reads as absent")
    func nullValue() throws {
        guard case .dictionary(let dictionary) = try Self.parse("<</A null /B 1>>").get().object else {
            Issue.record("not a dictionary")
            return
        }
        #expect(dictionary["B"] == 1)
        #expect(dictionary.int("B") == 1)
        #expect(dictionary.int("A") == nil)
        #expect(dictionary["A"] == PDFObject?.none)

    }

    @Test("a dictionary read with a null value equals itself and the same dictionary without that key")
    func nullValueEquality() throws {
        let first = try Self.parse("<</A null /B 1>>").get().object
        let second = try Self.parse("<</A null /B 1>>").get().object
        #expect(first == second)
        #expect(first == .dictionary(["B": 1]))

    }

    // MARK: Damaged objects

    @Test(
        "damaged objects are repaired with a syntax warning",
        arguments: [
            ("<</A 1 /B>>", .dictionary(["A": 1])),
            ("<</A 1 2 /B 3>>", .dictionary(["A": 1, "B": 3])),
            ("<</A 1 (k) /B 3>>", .dictionary(["A": 1, "B": 3])),
            ("[1 foo 2]", [1, .null, 2]),
            ("<</A 1 ] /B 2>>", .dictionary(["A": 1, "B": 2])),
            ("[1 >> 2]", [1, 2]),
            ("[1 {2} 3]", [1, .null, 2, .null, 3]),
            ("[1 2", [1, 2]),
            ("<</A [1 <</B 2", .dictionary(["A": [1, .dictionary(["B": 2])]])),
            ("[/A#2]", [.name("A#2")]),
            ("[1 0 Rx]", [1, 0, .null]),
        ] as [(String, PDFObject)]
    )
    func repaired(text: String, expected: PDFObject) throws {
        let result = try Self.parse(text).get()
        #expect(result.object == expected)
        #expect(!result.warnings.isEmpty)
        #expect(result.warnings.allSatisfy { $0.code == .syntax })
    }

    @Test("a lone '>' closing a dictionary is repaired with a warning")
    func loneGreaterThan() throws {
        let result = try Self.parse("<</A 1>").get()
        #expect(result.object == .dictionary(["A": 1]))
        #expect(!result.warnings.isEmpty)

    }

    @Test(
        "an object left open before a keyword that cannot be inside it is closed, stopping before the keyword",
        arguments: ["endobj", "stream", "endstream", "obj", "xref", "trailer", "startxref"]
    )
    func closedAtKeyword(keyword: String) throws {
        let text = "<</A 1 /B [2 3 \(keyword) rest"
        let result = try Self.parse(text).get()
        #expect(result.object == .dictionary(["A": 1, "B": [2, 3]]))
        // The lexer is left before the white space that precedes the keyword.
        let keywordOffset = text.utf8.count - keyword.utf8.count - 5
        #expect(result.position == keywordOffset - 1)
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.offset == result.position)
    }

    @Test("warnings are capped at 100 per object")
    func warningCap() throws {
        let text = "[" + String(repeating: " x", count: 500) + "]"
        let result = try Self.parse(text).get()
        #expect(result.object.arrayValue?.count == 500)
        #expect(result.warnings.count == 100)
    }

    // MARK: Errors

    @Test(
        "no object at the position is a syntax error",
        arguments: ["", "   ", "% a comment only", "endobj", "foo", "]", ">>", "}", "{", "R", "obj", "stream"]
    )
    func syntaxErrors(text: String) {
        #expect(throws: PDFError(.syntax, "")) { try Self.parse(text).get() }
    }

    @Test(
        "nesting up to maxDepth is read and one level more is refused",
        arguments: [("[", "]"), ("<</A ", ">>")] as [(String, String)]
    )
    func depthLimit(open: String, close: String) throws {
        func nested(_ depth: Int) -> String {
            String(repeating: open, count: depth) + String(repeating: close, count: depth)
        }
        #expect(throws: Never.self) { try Self.parse(nested(256), maxDepth: 256).get() }
        #expect(throws: PDFError(.limitExceeded, "")) { try Self.parse(nested(257), maxDepth: 256).get() }
        #expect(throws: PDFError(.limitExceeded, "")) { try Self.parse(nested(300), maxDepth: 256).get() }
        #expect(throws: PDFError(.limitExceeded, "")) { try Self.parse(nested(5), maxDepth: 4).get() }
    }

    @Test("100 000 nested arrays throw past the limit and parse with an explicit stack under a large one")
    func deepNesting() throws {
        let depth = 100_000
        let open = [UInt8](repeating: UInt8(ascii: "["), count: depth)
        #expect(throws: PDFError(.limitExceeded, "")) { try Self.parse(open, maxDepth: 256).get() }

        let balanced = open + [UInt8](repeating: UInt8(ascii: "]"), count: depth)
        var current: PDFObject = try balanced.withUnsafeBytes { buffer throws(PDFError) in
            var parser = ObjectParser(buffer, maxDepth: 200_000)
            return try parser.parseObject()
        }
        // Walk (and free) the result one level at a time so no recursion is needed.
        var levels = 0
        while case .array(let items) = current, items.count <= 1 {
            levels += 1
            guard let inner = items.first else { break }
            current = inner
        }
        #expect(levels == depth)
    }

    // MARK: Indirect objects and streams

    static let hello = Array("Hello".utf8)

    @Test("a stream with a correct /Length is read without warnings")
    func streamWithLength() throws {
        let text = "1 0 obj\n<</Length 5>>\nstream\nHello\nendstream\nendobj\n"
        let result = try Self.indirect(text).get()
        #expect(result.parsed.reference == PDFReference(1, 0))
        #expect(result.parsed.object == .dictionary(["Length": 5]))
        #expect(result.data == Self.hello)
        #expect(result.parsed.warnings.isEmpty)
        #expect(result.parsed.range == 0..<(text.utf8.count - 1))
    }

    @Test("a correct /Length is trusted even when the data contains 'endstream'")
    func lengthBeatsEmbeddedKeyword() throws {
        let text = "2 0 obj <</Length 14>> stream\nendstream xxxx\nendstream endobj"
        let result = try Self.indirect(text).get()
        #expect(result.data == Array("endstream xxxx".utf8))
        #expect(result.parsed.warnings.isEmpty)
    }

    @Test(
        "a wrong or missing /Length is recovered up to 'endstream' with a warning, without the EOL before it",
        arguments: ["/Length 4", "/Length 100", "/Length -1", "/Length (5)", "/Length 2.5", "", "/Length 0"]
    )
    func wrongLength(entry: String) throws {
        for eol in ["\n", "\r\n", "\r"] {
            let text = "3 0 obj\n<<\(entry)>>\nstream\nHello\(eol)endstream\nendobj\n"
            let result = try Self.indirect(text).get()
            #expect(result.data == Self.hello, "EOL \(Array(eol.utf8))")
            #expect(result.parsed.warnings.map(\.code) == [.streamLengthInvalid])
            #expect(result.parsed.warnings.first?.object == PDFReference(3, 0))
            #expect(result.parsed.range == 0..<(text.utf8.count - 1))
        }
    }

    @Test("a stream without 'endstream' runs to 'endobj', or to the end of the data")
    func missingEndstream() throws {
        let toEndobj = try Self.indirect("4 0 obj <<>> stream\nHello\nendobj").get()
        #expect(toEndobj.data == Self.hello)
        #expect(toEndobj.parsed.warnings.map(\.code) == [.streamLengthInvalid])
        let toEnd = try Self.indirect("4 0 obj <<>> stream\nHello").get()
        #expect(toEnd.data == Self.hello)
    }

    @Test("an indirect /Length is resolved through the closure")
    func indirectLength() throws {
        let text = "5 0 obj <</Length 7 0 R>>\nstream\nHello\nendstream\nendobj"
        var asked: [PDFReference] = []
        let resolved = try Self.indirect(text) { reference in
            asked.append(reference)
            return reference == PDFReference(7, 0) ? 5 : nil
        }.get()
        #expect(asked == [PDFReference(7, 0)])
        #expect(resolved.data == Self.hello)
        #expect(resolved.parsed.warnings.isEmpty)

        let unresolved = try Self.indirect(text) { _ in nil }.get()
        #expect(unresolved.data == Self.hello)
        #expect(unresolved.parsed.warnings.map(\.code) == [.streamLengthInvalid])
    }

    @Test(
        "the end of line after 'stream' is not data: CRLF, LF, a lone CR, or spaces before it",
        arguments: ["stream\r\n", "stream\n", "stream\r", "stream  \r\n", "stream\t\n"]
    )
    func streamKeywordEOL(keyword: String) throws {
        let text = "6 0 obj <</Length 5>>\(keyword)Hello\r\nendstream endobj"
        let result = try Self.indirect(text).get()
        #expect(result.data == Self.hello)
        #expect(result.parsed.warnings.isEmpty)
    }

    @Test("an indirect object that is not a stream has no stream data and ends after 'endobj'")
    func plainIndirect() throws {
        let text = " 12 3 obj\n[1 2]\nendobj trailing"
        let result = try Self.indirect(text).get()
        #expect(result.parsed.reference == PDFReference(12, 3))
        #expect(result.parsed.object == [1, 2])
        #expect(result.parsed.streamData == nil)
        #expect(result.parsed.range == 0..<(text.utf8.count - 9))
        #expect(result.parsed.warnings.isEmpty)
    }

    @Test(
        "an empty object is null with a warning",
        arguments: ["3 0 obj endobj", "3 0 obj\nendobj\n", "3 0 obj\r\n\r\nendobj"]
    )
    func emptyObject(text: String) throws {
        let empty = try Self.indirect(text).get()
        #expect(empty.parsed.object == .null)
        #expect(empty.parsed.warnings.map(\.code) == [.objectInvalid])
    }

    @Test("a missing 'endobj' is a warning")
    func unterminated() throws {
        let open = try Self.indirect("3 0 obj 42 ").get()
        #expect(open.parsed.object == 42)
        #expect(open.parsed.warnings.map(\.code) == [.syntax])
    }

    @Test(
        "bytes without an 'n g obj' header are a syntax error",
        arguments: ["obj 1", "1 0 <<>>", "1 obj 2", "x 0 obj 1", ""])
    func noHeader(text: String) {
        #expect(throws: PDFError(.syntax, "")) { try Self.indirect(text).get() }
    }

    // MARK: Round trips through the serializer

    @Test(
        "parse, serialize and parse again gives an equal object written the same way",
        arguments: [
            ("[-.5 4. +3.25 0.000001 --2.5 -0 7]", "[-.5 4. +3.25 0.000001 -2.5 0 7]"),
            ("<48656c6c6f>", "<48656C6C6F>"),
            ("<901FA>", "<901FA0>"),
            ("/A#20B#23#2f#28", "/A#20B#23#2F#28"),
            ("/#82l#82r", "/#82l#82r"),
            ("/caf#C3#A9", "/caf#C3#A9"),
            ("(a\\(b\\)c\\\\\n\r)", "(a\\(b\\)c\\\\\\n\\n)"),
            ("(\\001\\377 \\t)", "(\\001\\377 \\t)"),
            (
                "<< /A 1 /B /N /C (s) /D [1 0 R] /E 2 0 R /F true /G -.5 >>",
                "<</A 1/B/N/C(s)/D[1 0 R]/E 2 0 R/F true/G -.5>>"
            ),
            ("[1 0 R null true false [] <<>>]", "[1 0 R null true false [] <<>>]"),
            ("<< /A << /B [ ] >> >>", "<</A<</B[]>>>>"),
            ("(%not a comment)", "(%not a comment)"),
        ] as [(String, String)]
    )
    func roundTrip(input: String, serialized: String) throws {
        let first = try Self.parse(input).get().object
        let written = PDFSerializer.bytes(of: first)
        #expect(String(decoding: written, as: UTF8.self) == serialized)
        let second = try Self.parse(written).get()
        #expect(second.object == first)
        #expect(second.warnings.isEmpty)
        // Written again, the bytes are the same: literals and the hex form survived.
        #expect(PDFSerializer.bytes(of: second.object) == written)
    }

    @Test("a serialized stream reads back with its data and /Length")
    func streamRoundTrip() throws {
        let encoded = Array("48656C6C6F>".utf8)
        let stream = PDFStream(dictionary: ["Filter": .name("ASCIIHexDecode")], encodedBytes: encoded)
        let bytes = Array("9 0 obj\n".utf8) + PDFSerializer.bytes(of: .stream(stream)) + Array("\nendobj\n".utf8)
        let result = try Self.indirect(bytes).get()
        #expect(result.data == encoded)
        #expect(result.parsed.warnings.isEmpty)
        let dictionary = try #require(result.parsed.object.dictionaryValue)
        #expect(dictionary == ["Filter": .name("ASCIIHexDecode"), "Length": .integer(encoded.count)])
        #expect(try PDFStream(dictionary: dictionary, encodedBytes: result.data ?? []).decodedData() == Self.hello)
    }

    // MARK: Truncation and byte-flip sweeps (STYLE.md rule 15)

    static let everyKind = Array(
        """
        <</Int -42/Real -.5/Lit(a\\(b\\)\\101\r\n)/Hex<48 65 6>/Name/A#20B/Raw/#82x/Arr[1 0 R true false null[/X 2.5]]
        /Dict<</K<<>>/E[]>>/Ref 12 0 R/Neg -0/Str()%comment
        >>
        """.utf8)

    static let streamObject = Array(
        "7 0 obj\n<</Length 10/Filter/AHx/DecodeParms<</K[1 2]>>>>\nstream\n48656C6C6F\nendstream\nendobj\n".utf8)

    @Test("the sweep inputs parse cleanly in full")
    func sweepInputs() throws {
        let dictionary = try Self.parse(Self.everyKind).get()
        #expect(dictionary.warnings.isEmpty)
        #expect(
            dictionary.object.dictionaryValue?.keys.map(\.string) == [
                "Int", "Real", "Lit", "Hex", "Name", "Raw", "Arr", "Dict", "Ref", "Neg", "Str",
            ])
        let stream = try Self.indirect(Self.streamObject).get()
        #expect(stream.data == Array("48656C6C6F".utf8))
        #expect(stream.parsed.warnings.isEmpty)
    }

    @Test("every prefix of a dictionary with every object kind parses with warnings or throws .syntax")
    func truncatedObject() throws {
        let full = try #require(try Self.parse(Self.everyKind).get().object.dictionaryValue)
        for length in 0..<Self.everyKind.count {
            switch Self.parse(Array(Self.everyKind[..<length])) {
            case .success(let result):
                #expect(result.position <= length)
                guard length > 1 else { continue }
                let dictionary = try #require(result.object.dictionaryValue, "prefix \(length)")
                // A lone `>` closes the dictionary silently (see `loneGreaterThan`).
                if Self.everyKind[length - 1] != UInt8(ascii: ">") {
                    #expect(!result.warnings.isEmpty, "prefix \(length) read without a warning")
                }
                // Each key is a key of the full dictionary, or the start of one when the prefix cuts it.
                for key in dictionary.keys {
                    #expect(full.keys.contains { $0.string.hasPrefix(key.string) }, "prefix \(length): /\(key.string)")
                }
            case .failure(let error):
                #expect(error.code == .syntax)
                #expect(length == 0, "prefix \(length) threw \(error)")
            }
        }
    }

    @Test("every prefix of an indirect stream object parses or throws .syntax, with data inside the prefix")
    func truncatedStreamObject() {
        var parsedCount = 0
        for length in 0..<Self.streamObject.count {
            switch Self.indirect(Array(Self.streamObject[..<length])) {
            case .success(let result):
                parsedCount += 1
                #expect(result.parsed.range.upperBound <= length)
                if let range = result.parsed.streamData { #expect(range.upperBound <= length) }
            case .failure(let error):
                #expect(error.code == .syntax)
            }
        }
        // Every prefix from the first byte of the body (`<`, a hex string) onwards has an object.
        #expect(parsedCount == Self.streamObject.count - 9)
    }

    static let hostileBytes: [UInt8] = [0x28, 0x3C, 0x5B, 0x2F, 0x5C, 0x23, 0x00, 0xFF]

    @Test("replacing any byte with a hostile one never traps", arguments: [0, 1])
    func byteFlips(input: Int) {
        let original = input == 0 ? Self.everyKind : Self.streamObject
        var parsedCount = 0
        for position in original.indices {
            for hostile in Self.hostileBytes {
                var mutated = original
                mutated[position] = hostile
                let result: Result<Int, PDFError>
                if input == 0 {
                    result = Self.parse(mutated).map(\.position)
                } else {
                    result = Self.indirect(mutated).map {
                        $0.parsed.streamData?.upperBound ?? $0.parsed.range.upperBound
                    }
                }
                switch result {
                case .success(let end):
                    parsedCount += 1
                    #expect(end <= mutated.count)
                case .failure(let error):
                    #expect(error.code == .syntax, "byte \(hostile) at \(position): \(error)")
                }
            }
        }
        #expect(parsedCount > original.count * Self.hostileBytes.count / 2)
    }
}
