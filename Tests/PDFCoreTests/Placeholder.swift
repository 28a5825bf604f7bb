import Testing
@testable import PDFCore

@Test func debugEncryption() throws {
    let doc = try PDFDocument(contentsOfFile: "/work/shared/corpus/pdfjs/issue19484_2.pdf")
    for ref in doc.objectReferences {
        let o = doc.object(ref)
        if let s = o.streamValue {
            do { let d = try s.decodedData(); print(ref, "ok", d.count, String(decoding: d.prefix(40), as: UTF8.self)) } catch { print(ref, "fail", error) }
        } else { print(ref, o.typeName, String(describing: o).prefix(150)) }
    }
}
