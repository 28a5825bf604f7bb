import Foundation
import PDFCore
import PDFImageCodecs
import PDFTestSupport
import Testing

@testable import PDFGraphics

/// JBIG2 and CCITT images of the shared corpus decoded by Autograph, by poppler (`pdfimages`
/// writes 1-bit images as PBM) and by MuPDF (`mutool extract` writes PNG, converted to PBM by
/// Pillow). The comparison is on the filter output: poppler writes an image's samples inverted
/// (PBM's 1 = black against DeviceGray's 0 = black) and a stencil mask's samples as they are;
/// MuPDF writes the samples as grey levels (0 → black). Skipped when the corpus or the tools are
/// absent.
@Suite(
    "JBIG2 and CCITT corpus images against poppler and MuPDF", .serialized,
    .enabled(if: Requirement.corpus, "the corpus is absent"),
    .enabled(if: Requirement.tools("pdfimages", "mutool", "python3"), "pdfimages, mutool or python3 is not installed"))
struct JBIG2CorpusTests {
    struct Verdict: CustomStringConvertible {
        var label: String
        var poppler: Bool?
        var mupdf: Bool?
        var note = ""
        var description: String {
            func word(_ value: Bool?) -> String { value.map { $0 ? "match" : "DIFFER" } ?? "n/a" }
            return "\(label): poppler \(word(poppler)), MuPDF \(word(mupdf))\(note.isEmpty ? "" : " (\(note))")"
        }
    }

    /// The corpus files whose README class list has `tag`.
    static func corpusFiles(tag: String) throws -> [(name: String, path: String, password: String?)] {
        let root = try #require(TestPaths.corpus)
        let readme = try String(contentsOfFile: "\(root)/README.md", encoding: .utf8)
        let passwords = Dictionary(CorpusFile.all(in: root).map { ($0.name, $0.password) }) { first, _ in first }
        return readme.split(separator: "\n").compactMap { line in
            let columns = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard columns.count >= 7, columns.last?.split(separator: " ").contains(Substring(tag)) == true else {
                return nil
            }
            return (columns[0], "\(root)/\(columns[0])", passwords[columns[0]] ?? nil)
        }
    }

    /// Decodes every image of `filter` in the files of class `tag` and compares with both oracles.
    static func compareCorpus(tag: String, filter: PDFName) throws -> [Verdict] {
        let files = try corpusFiles(tag: tag)
        var verdicts: [Verdict] = []
        for (name, path, password) in files {
            var options = ParseOptions()
            options.password = password
            guard let document = try? PDFDocument(contentsOfFile: path, options: options) else {
                verdicts.append(Verdict(label: name, poppler: false, mupdf: false, note: "does not open"))
                continue
            }
            let passwordArguments = password.map { ["-upw", $0] } ?? []
            let all = try CodecOracle.list(path, arguments: passwordArguments)
            let directory = try TestPaths.temporaryDirectory("codecs")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            var extracted: [Int: [String]] = [:]
            for image in all {
                guard let number = image.object,
                    let stream = document.object(PDFReference(number)).streamValue,
                    let partial = try? stream.partiallyDecodedData(), partial.imageCodec == filter
                else { continue }
                var verdict = Verdict(label: "\(name) object \(number)")
                let decoded: (width: Int, height: Int, rows: [UInt8])
                do {
                    decoded = try decodeImage(partial, document: document, stream: stream)
                } catch {
                    verdict.poppler = false
                    verdict.mupdf = false
                    verdict.note = "\(error)"
                    verdicts.append(verdict)
                    continue
                }
                let ours = CodecOracle.maskPadding(decoded.rows, width: decoded.width)
                func same(_ bitmap: CodecOracle.Bitmap, inverted: Bool) -> Bool {
                    bitmap.width == decoded.width && bitmap.height == decoded.height
                        && CodecOracle.maskPadding(
                            inverted ? bitmap.bits.map { ~$0 } : bitmap.bits, width: bitmap.width)
                            == ours
                }
                // poppler: every image of the page, numbered from the page's first (inline ones too).
                if extracted[image.page] == nil {
                    extracted[image.page] = try CodecOracle.extract(
                        path, page: image.page, into: directory, arguments: passwordArguments)
                }
                let index = image.number - (all.filter { $0.page == image.page }.map(\.number).min() ?? 0)
                if let files = extracted[image.page], index < files.count, files[index].hasSuffix(".pbm") {
                    let isMask = document.resolve(stream.dictionary["ImageMask"] ?? .null).boolValue == true
                    verdict.poppler = same(try CodecOracle.readPBM(files[index]), inverted: !isMask)
                }
                if let bitmap = try CodecOracle.mupdfExtract(path, object: number, into: directory, password: password)
                {
                    verdict.mupdf = same(bitmap, inverted: true)
                }
                verdicts.append(verdict)
            }
        }
        return verdicts
    }

    /// Decodes one image stream's codec.
    static func decodeImage(_ partial: DecodedStreamData, document: PDFDocument, stream: PDFStream) throws(PDFError)
        -> (width: Int, height: Int, rows: [UInt8])
    {
        let parameters = partial.imageCodecParameters
        if partial.imageCodec == .jbig2Decode {
            var globals: [UInt8]?
            if let object = parameters?["JBIG2Globals"], let globalStream = document.resolve(object).streamValue {
                globals = try globalStream.decodedData()
            }
            return try JBIG2.decode(partial.data, globals: globals)
        }
        var ccitt = CCITTParameters(parameters, document: document)
        let height = document.resolve(stream.dictionary["Height"] ?? .null).intValue ?? 0
        if ccitt.rows == 0 { ccitt.rows = height }
        let rows = try CCITTFax.decode(partial.data, parameters: ccitt)
        return (ccitt.columns, rows.count / ((ccitt.columns + 7) / 8), rows)
    }

    @Test("JBIG2 images decode as poppler or MuPDF decode them")
    func jbig2MatchesOracles() throws {
        let verdicts = try Self.compareCorpus(tag: "img-jbig2", filter: .jbig2Decode)
        for verdict in verdicts { print("JBIG2 corpus: \(verdict)") }
        #expect(verdicts.count >= 17)
        // Where neither decodes the file right (jbig2dec cannot read intermediate regions and fails
        // on Huffman aggregates; poppler puts noise in the first rows of TPGRON with template 1 and
        // drops rows of a symbol in Huffman symbol dictionaries), the file is compared with poppler's
        // bitmap of a sibling file that codes the same picture (pdf.js's bitmap-* series).
        let siblings = [
            "pdfjs/bitmap-refine-template1-tpgron.pdf": "pdfjs/bitmap-refine.pdf",
            "pdfjs/bitmap-symbol-symhuffrefineseveral.pdf": "pdfjs/bitmap-symbol.pdf",
        ]
        for verdict in verdicts where verdict.poppler != true && verdict.mupdf != true {
            let file = String(verdict.label.prefix { $0 != " " })
            guard let sibling = siblings[file] else {
                Issue.record("no oracle agrees: \(verdict)")
                continue
            }
            try expectSamePicture(file, as: sibling)
        }
    }

    /// Our decoding of `file` equals poppler's of `reference` (the same picture coded differently).
    func expectSamePicture(_ file: String, as reference: String) throws {
        let root = try #require(TestPaths.corpus)
        let document = try PDFDocument(contentsOfFile: "\(root)/\(file)")
        let stream = try #require(document.object(PDFReference(5)).streamValue)
        let decoded = try Self.decodeImage(try stream.partiallyDecodedData(), document: document, stream: stream)
        let directory = try TestPaths.temporaryDirectory("codecs")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = try CodecOracle.extract("\(root)/\(reference)", page: 1, into: directory)
        let expected = try CodecOracle.readPBM(try #require(files.first))
        #expect(expected.width == decoded.width && expected.height == decoded.height)
        #expect(
            CodecOracle.maskPadding(expected.bits.map { ~$0 }, width: expected.width)
                == CodecOracle.maskPadding(decoded.rows, width: decoded.width))
    }

    @Test("CCITT images decode as poppler and MuPDF decode them")
    func ccittMatchesOracles() throws {
        let verdicts = try Self.compareCorpus(tag: "img-ccitt", filter: .ccittFaxDecode)
        for verdict in verdicts { print("CCITT corpus: \(verdict)") }
        #expect(verdicts.count >= 9)
        for verdict in verdicts where verdict.poppler != true && verdict.mupdf != true {
            Issue.record("no oracle agrees: \(verdict)")
        }
    }

    @Test(
        "prefixes of the corpus JBIG2 streams (every twelfth of the length) decode or throw",
        .enabled(if: Requirement.corpus, "the corpus is absent"))
    func truncationSweep() throws {
        let files = try Self.corpusFiles(tag: "img-jbig2")
        for (name, path, password) in files.prefix(17) {
            var options = ParseOptions()
            options.password = password
            let document = try PDFDocument(contentsOfFile: path, options: options)
            for reference in document.objectReferences {
                guard let stream = document.object(reference).streamValue,
                    let partial = try? stream.partiallyDecodedData(), partial.imageCodec == .jbig2Decode
                else { continue }
                var globals: [UInt8]?
                if let object = partial.imageCodecParameters?["JBIG2Globals"],
                    let globalStream = document.resolve(object).streamValue
                {
                    globals = try globalStream.decodedData()
                }
                let full = try JBIG2.decode(partial.data, globals: globals)
                let step = max(1, partial.data.count / 12)
                for length in stride(from: 0, to: partial.data.count, by: step) {
                    if let result = try? JBIG2.decode(Array(partial.data.prefix(length)), globals: globals) {
                        #expect(result.rows.count == result.height * ((result.width + 7) / 8), "\(name) \(length)")
                    }
                }
                #expect(full.rows.count == full.height * ((full.width + 7) / 8))
            }
        }
    }
}
