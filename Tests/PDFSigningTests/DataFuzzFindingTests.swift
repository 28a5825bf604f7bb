import PDFTestSupport
import Testing

@testable import PDFSigning

/// The inputs `FuzzData` found, and its seeds made here, replayed through ``DataFuzzInput``: DER,
/// CMS, certificates, CRLs, OCSP and time-stamp responses, XFDF and JSON are read or refused without
/// a trap, quickly.
@Suite("FuzzData findings")
struct DataFuzzFindingTests {
    @Test("each kept input is read or refused, quickly", arguments: FuzzFindings.names("FuzzData"))
    func replay(_ name: String) throws {
        let input = try FuzzFindings.input("FuzzData", name)
        #expect(FuzzFindings.seconds { DataFuzzInput.run(input) } < 20)
    }
}
