import PDFTestSupport
import Testing

@testable import PDFCore

/// Object-stream bombs (ISO 32000-2 §7.5.7): a small file whose object stream inflates to a gigabyte.
/// Object streams are decoded only as far as the objects read need, within one budget of decoded bytes
/// for the whole document (``ParseOptions/maxDecodedStructureSize``), from many threads at once too.
@Suite("Object streams are decoded within the document's budget")
struct ObjectStreamBudgetTests {
    /// Just under 1 GiB of padding: the stream stays under the 1 GiB a stream may decode to, so only
    /// the document's budget stops it.
    static let gigabyte = (1 << 30) - (1 << 20)

    @Test("an object stream inflating to 1 GiB with the catalog at its end is refused in seconds (limitExceeded, 5 0)")
    func catalogAtTheEnd() throws {
        let bomb = ObjectStreamBomb.make(padding: Self.gigabyte, objectsFirst: false)
        #expect(bomb.count < 1_200_000)
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let document = try PDFDocument(bytes: bomb)
            Issue.record("opened with \(document.pageCount) pages")
        } catch {
            #expect(error.code == .limitExceeded, "\(error)")
            #expect(error.object == PDFReference(5), "\(error)")
            #expect(error.message.contains("maxDecodedStructureSize"), "\(error)")
        }
        #expect(clock.now - start < .seconds(15))
    }

    @Test("an object stream inflating to 1 GiB with the catalog at its start opens in seconds: only its start is read")
    func catalogAtTheStart() throws {
        let bomb = ObjectStreamBomb.make(padding: Self.gigabyte, objectsFirst: true)
        let clock = ContinuousClock()
        let start = clock.now
        let document = try PDFDocument(bytes: bomb)
        #expect(document.pageCount == 1)
        #expect(document.warnings.isEmpty, "\(document.warnings)")
        #expect(clock.now - start < .seconds(15))
        // The objects' part of the stream and a little more, not the gigabyte after them.
        #expect(document.structure.decodedBytes <= 2 * StructureDecoder.minimumPrefix)
    }

    @Test("reading every object of a bomb stream decodes past the budget once, then refuses at once")
    func manyObjectsOfOneStream() throws {
        // 1,000 objects after 64 MiB of padding, read one by one with a budget of 8 MiB.
        let extra = (0..<1000).map { "<< /Index \($0) >>" }
        let bomb = ObjectStreamBomb.make(padding: 64 << 20, objectsFirst: true, extra: extra)
        var options = ParseOptions()
        options.maxDecodedStructureSize = 8 << 20
        let document = try PDFDocument(bytes: bomb, options: options)
        #expect(document.pageCount == 1)
        let clock = ContinuousClock()
        let start = clock.now
        for number in ObjectStreamBomb.extraNumbers(count: extra.count) {
            #expect(document.object(PDFReference(number)) == .null)
        }
        #expect(clock.now - start < .seconds(10))
        #expect(document.structure.decodedBytes <= options.maxDecodedStructureSize)
        #expect(document.warnings.contains { $0.code == .objectStreamInvalid && $0.object == PDFReference(5) })
    }

    @Test("threads reading one document together stay within its budget and decode a stream once")
    func threadsTogether() async throws {
        let extra = (0..<200).map { "<< /Index \($0) >>" }
        let bomb = ObjectStreamBomb.make(padding: 32 << 20, objectsFirst: true, extra: extra)
        var options = ParseOptions()
        options.maxDecodedStructureSize = 4 << 20
        let document = try PDFDocument(bytes: bomb, options: options)
        let numbers = ObjectStreamBomb.extraNumbers(count: extra.count)
        let nonNull = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    numbers.shuffled().filter { number in
                        (task % 2 == 0 || number % 2 == 0) && !document.object(PDFReference(number)).isNull
                    }.count
                }
            }
            return await group.reduce(0, +)
        }
        #expect(nonNull == 0)
        #expect(document.structure.decodedBytes <= options.maxDecodedStructureSize)

        // Within the budget, each thread reads every object and the stream is decoded far enough once.
        options.maxDecodedStructureSize = 64 << 20
        let roomy = try PDFDocument(bytes: bomb, options: options)
        let read = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    numbers.shuffled().filter { roomy.object(PDFReference($0)).dictionaryValue != nil }.count
                }
            }
            return await group.reduce(0, +)
        }
        #expect(read == 8 * numbers.count)
        #expect(roomy.structure.decodedBytes < 2 * (32 << 20))
    }

    @Test("a cross-reference stream is decoded as far as the rows it declares, not the gigabyte after them")
    func crossReferenceStreamPrefix() throws {
        let bomb = ObjectStreamBomb.make(padding: 1 << 20, objectsFirst: true, xrefPadding: Self.gigabyte)
        let clock = ContinuousClock()
        let start = clock.now
        let document = try PDFDocument(bytes: bomb)
        #expect(document.pageCount == 1)
        #expect(!document.wasRecovered)
        #expect(clock.now - start < .seconds(15))
        #expect(document.structure.decodedBytes <= 4 * StructureDecoder.minimumPrefix)
    }

    @Test("rebuilding the index reads only the headers of object streams")
    func recoveryReadsHeaders() throws {
        var bomb = ObjectStreamBomb.make(padding: Self.gigabyte, objectsFirst: true)
        // No startxref: the index is rebuilt by scanning, object streams listed from their headers.
        let keyword = Array("startxref".utf8)
        let at = try #require(
            (0...(bomb.count - keyword.count)).last { bomb[$0..<($0 + keyword.count)].elementsEqual(keyword) })
        bomb.replaceSubrange(at..<(at + keyword.count), with: Array("startxreF".utf8))
        let clock = ContinuousClock()
        let start = clock.now
        let document = try PDFDocument(bytes: bomb)
        #expect(document.wasRecovered)
        #expect(document.pageCount == 1)
        #expect(clock.now - start < .seconds(15))
        #expect(document.structure.decodedBytes <= 2 * StructureDecoder.minimumPrefix)
    }

    @Test(
        "objects read from the start of a long object stream are those of the whole stream", arguments: [false, true])
    func prefixReadsTheSameObjects(predictor: Bool) throws {
        // Objects of every kind across 1 MiB (several prefixes), the last a bare number.
        var values: [String] = []
        for index in 0..<12000 {
            switch index % 6 {
            case 0: values.append("<< /Kind /Dictionary /Index \(index) /Text (a \\) paren) >>")
            case 1: values.append("[\(index) 0 R \(index) /Name (x)]")
            case 2: values.append("(a string with ) ( nested parens \(index))")
            case 3: values.append("\(index)")
            case 4: values.append("\(index) 0 R")
            default: values.append(String(repeating: " ", count: 150) + "<FEFF00\(index % 10)0>")
            }
        }
        values.append("424242")
        let bomb = ObjectStreamBomb.make(padding: 0, objectsFirst: true, extra: values, predictor: predictor)
        let document = try PDFDocument(bytes: bomb)
        let numbers = ObjectStreamBomb.extraNumbers(count: values.count)
        // Last object first: the whole stream, then every other one from it.
        let expected = try values.map { value in
            try Array(value.utf8).withUnsafeBytes { buffer in
                try Result { () throws(PDFError) in
                    var parser = ObjectParser(buffer)
                    return try parser.parseObject()
                }.get()
            }
        }
        let fresh = try PDFDocument(bytes: bomb)
        for (number, value) in zip(numbers, expected).reversed() {
            #expect(fresh.object(PDFReference(number)) == value, "object \(number)")
        }
        for (number, value) in zip(numbers, expected) {
            #expect(document.object(PDFReference(number)) == value, "object \(number)")
        }
        #expect(document.warnings.isEmpty, "\(document.warnings.prefix(3))")
    }

    @Test("a budget smaller than a document's object streams reads the objects beyond it as null, with a warning")
    func smallBudget() throws {
        let extra = (0..<3000).map { "<< /Index \($0) /Padding (\(String(repeating: "x", count: 200))) >>" }
        let bytes = ObjectStreamBomb.make(padding: 0, objectsFirst: true, extra: extra)
        var options = ParseOptions()
        options.maxDecodedStructureSize = 600_000
        let document = try PDFDocument(bytes: bytes, options: options)
        #expect(document.pageCount == 1)
        let numbers = ObjectStreamBomb.extraNumbers(count: extra.count)
        #expect(document.object(PDFReference(numbers[0])).dictionaryValue != nil)
        #expect(document.object(PDFReference(numbers[numbers.count - 1])) == .null)
        #expect(document.warnings.contains { $0.message.contains("maxDecodedStructureSize") })
        #expect(document.structure.decodedBytes <= options.maxDecodedStructureSize)
        // With the default budget every object reads.
        let whole = try PDFDocument(bytes: bytes)
        #expect(whole.object(PDFReference(numbers[numbers.count - 1])).dictionaryValue != nil)
    }
}

/// A PDF whose object stream 5 0 holds the catalog (1 0), its page tree (2 0) and a page (3 0) before or
/// after `padding` spaces, then `extra` objects (7 0 on) after the padding; the cross-reference stream
/// 6 0 lists them. Made in memory, as `Tests/Scripts/objstm_bomb.py` writes it to a file: one raw deflate
/// piece of 1 MiB of spaces is compressed once and repeated, each piece referring only to itself.
enum ObjectStreamBomb {
    static let piece = 1 << 20

    /// The numbers `extra` objects get.
    static func extraNumbers(count: Int) -> [Int] { Array(7..<(7 + count)) }

    /// - Parameters:
    ///   - padding: spaces in the object stream, rounded down to whole MiB (0: none).
    ///   - xrefPadding: zero bytes after the cross-reference stream's rows (rounded down to whole MiB).
    ///   - predictor: the object stream's data with a PNG predictor (/Predictor 12, 16 columns), no padding.
    static func make(
        padding: Int, objectsFirst: Bool, extra: [String] = [], xrefPadding: Int = 0, predictor: Bool = false
    ) -> [UInt8] {
        let main = [
            "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
        ]
        let numbers = [1, 2, 3] + extraNumbers(count: extra.count)
        let pieces = padding / piece
        var offsets: [Int] = []
        var position = 0
        func lay(_ objects: [String]) -> [UInt8] {
            var bytes: [UInt8] = []
            for object in objects {
                offsets.append(position)
                bytes += Array((object + "\n").utf8)
                position += object.utf8.count + 1
            }
            return bytes
        }
        var before: [UInt8] = []
        if objectsFirst { before = lay(main) }
        position += pieces * piece
        var after: [UInt8] = []
        if !objectsFirst { after = lay(main) }
        after += lay(extra)
        let header = Array(
            (zip(numbers, offsets).map { "\($0) \($1)" }.joined(separator: " ") + "\n").utf8)

        var dictionary = "/Type /ObjStm /N \(numbers.count) /First \(header.count) /Filter /FlateDecode"
        let data: [UInt8]
        if predictor {
            // Rows of 16 bytes, each with PNG filter type 0 (None) before it.
            let plain = header + before + after
            var rows: [UInt8] = []
            for start in stride(from: 0, to: plain.count, by: 16) {
                rows.append(0)
                rows += plain[start..<min(start + 16, plain.count)]
                rows += [UInt8](repeating: 0, count: max(0, start + 16 - plain.count))
            }
            data = Flate.compress(rows)
            dictionary += " /DecodeParms << /Predictor 12 /Columns 16 >>"
        } else {
            let spaces = [UInt8](repeating: 0x20, count: piece)
            data = RepeatedDeflate.zlib(header + before, repeating: spaces, times: pieces, then: after)
        }

        var raw = RawPDF()
        raw.stream(5, dictionary: dictionary, data: data)
        let xrefOffset = raw.position
        var rows: [UInt8] = []
        func row(_ type: UInt8, _ second: Int, _ third: Int) {
            rows.append(type)
            rows += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: second >> $0) }
            rows += [8, 0].map { UInt8(truncatingIfNeeded: third >> $0) }
        }
        let size = 7 + extra.count
        for number in 0..<size {
            if let index = numbers.firstIndex(of: number) {
                row(2, 5, index)
            } else if number == 5 {
                row(1, raw.offsets[5]!, 0)
            } else if number == 6 {
                row(1, xrefOffset, 0)
            } else {
                row(0, 0, number == 0 ? 65535 : 0)
            }
        }
        let zeros = [UInt8](repeating: 0, count: piece)
        let xrefData = RepeatedDeflate.zlib(rows, repeating: zeros, times: xrefPadding / piece, then: [])
        raw.stream(
            6, dictionary: "/Type /XRef /Size \(size) /W [1 4 2] /Root 1 0 R /Filter /FlateDecode", data: xrefData)
        raw.append("startxref\n\(xrefOffset)\n%%EOF\n")
        return raw.bytes
    }
}
