import Testing

@testable import PDFWeb

@Suite struct WebAssetTests {
    @Test func theViewerPageIsEmbedded() {
        let index = embeddedWebAssets["index.html"]
        #expect(index?.contentType.hasPrefix("text/html") == true)
        #expect(index.map { String(decoding: $0.bytes, as: UTF8.self).contains("<title>") } == true)
    }
}
