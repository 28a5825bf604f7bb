import Foundation
import PDFCore
import PDFImageCodecs
import PDFRendering
import PDFTestSupport
import Testing

/// JPEG 2000 images of the corpus decoded by ``JPXDecoder`` against poppler's `pdfimages -png`.
@Suite(
    "JPX decoding against pdfimages", .enabled(if: Requirement.corpusCatalog, "the corpus (or its catalog) is absent"))
struct JPXDecoderTests {
    /// Corpus files whose catalog lists a `/JPXDecode` image, with their passwords.
    static func corpusFiles() -> [CorpusFile] {
        guard let root = TestPaths.corpus,
            let catalog = try? String(contentsOfFile: root + "/dev-catalog.tsv", encoding: .utf8)
        else { return [] }
        let lines = catalog.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        guard let header = lines.first, let filters = header.firstIndex(of: "image_filters"),
            let file = header.firstIndex(of: "file")
        else { return [] }
        let names = Set(
            lines.dropFirst().filter { $0.count > filters && $0[filters].contains("JPXDecode") }.map {
                String($0[file])
            })
        return CorpusFile.all(in: root).filter { names.contains($0.name) }
    }

    @Test("Every JPX image of the corpus decodes to pdfimages' pixels")
    func corpusImages() throws {
        let files = Self.corpusFiles()
        try #require(!files.isEmpty, "no corpus file with a JPX image in the catalog")
        var compared = 0
        for file in files {
            let directory = try TestPaths.temporaryDirectory("jpx")
            let password = file.password.map { ["-upw", $0] } ?? []
            let list = try Oracle.run("pdfimages", ["-list"] + password + [file.path])
            // page num type width height color comp bpc enc interp object ID …
            let rows = list.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
                .filter { $0.count > 11 && $0[8] == "jpx" }
            guard !rows.isEmpty else { continue }
            _ = try Oracle.run("pdfimages", ["-png"] + password + [file.path, directory + "/img"])
            let document = try PDFDocument(contentsOfFile: file.path, options: ParseOptions(password: file.password))
            for row in rows {
                guard let index = Int(row[1]), let number = Int(row[10]), let width = Int(row[3]),
                    let height = Int(row[4])
                else { continue }
                guard let stream = document.object(PDFReference(number)).streamValue else {
                    Issue.record("\(file.name) object \(number): not a stream")
                    continue
                }
                let raw = try stream.partiallyDecodedData()
                #expect(raw.imageCodec == .jpxDecode)
                let ours = try JPXDecoder.decode(raw.data)
                #expect(ours.width == width && ours.height == height, "\(file.name) image \(index): size")
                let png =
                    directory + "/img-" + String(repeating: "0", count: max(0, 3 - row[1].count)) + row[1] + ".png"
                let theirs = try Self.pixels(png)
                #expect(theirs.components == ours.components, "\(file.name) image \(index): components")
                guard theirs.samples.count == ours.samples.count else {
                    Issue.record(
                        "\(file.name) image \(index): \(ours.samples.count) samples, pdfimages \(theirs.samples.count)")
                    continue
                }
                let differing = zip(ours.samples, theirs.samples).filter { abs(Int($0) - Int($1)) > 2 }.count
                let largest = zip(ours.samples, theirs.samples).map { abs(Int($0) - Int($1)) }.max() ?? 0
                print(
                    "JPX \(file.name) image \(index) (\(width)×\(height)×\(ours.components)): \(differing) of \(ours.samples.count) samples differ by more than 2, largest difference \(largest)"
                )
                #expect(differing * 100 <= ours.samples.count, "\(file.name) image \(index)")
                compared += 1
            }
        }
        #expect(compared > 0, "no JPX image was compared")
    }

    /// A PNG's samples through PIL: components and bytes.
    static func pixels(_ path: String) throws -> (components: Int, samples: [UInt8]) {
        let script = """
            import sys
            from PIL import Image
            image = Image.open(sys.argv[1])
            mode = {'1': 'L', 'L': 'L', 'P': 'RGB', 'RGB': 'RGB', 'RGBA': 'RGB', 'CMYK': 'CMYK', 'I;16': 'L', 'I': 'L'}.get(image.mode, 'RGB')
            sys.stdout.write(mode + '\\n')
            sys.stdout.flush()
            sys.stdout.buffer.write(image.convert(mode).tobytes())
            """
        let result = try Oracle.run("python3", ["-c", script, path])
        let data = [UInt8](result.outputData)
        guard let newline = data.firstIndex(of: 0x0A) else {
            throw TestFailure("PIL could not read \(path): \(result.errors)")
        }
        let mode = String(decoding: data[..<newline], as: UTF8.self)
        return (["L": 1, "RGB": 3, "CMYK": 4][mode] ?? 3, Array(data[(newline + 1)...]))
    }

    @Test("Truncated JPX data throws instead of crashing, at every tenth of its length")
    func truncation() throws {
        let file = try #require(
            Self.corpusFiles().first(where: { $0.password == nil }), "no unencrypted corpus file with a JPX image")
        let document = try PDFDocument(contentsOfFile: file.path)
        let list = try Oracle.run("pdfimages", ["-list", file.path])
        guard
            let row = list.output.split(separator: "\n").map({ $0.split(separator: " ").map(String.init) })
                .first(where: { $0.count > 11 && $0[8] == "jpx" }), let number = Int(row[10]),
            let stream = document.object(PDFReference(number)).streamValue
        else { return }
        let data = try stream.partiallyDecodedData().data
        for tenth in 0..<10 {
            let prefix = Array(data.prefix(data.count * tenth / 10))
            // Either a (partial) image or a decodeFailed error; never a crash.
            do {
                let image = try JPXDecoder.decode(prefix)
                #expect(image.samples.count == image.width * image.height * image.components)
            } catch {
                #expect(error.code == .decodeFailed || error.code == .limitExceeded || error.code == .unsupported)
            }
        }
    }
}
