public import AutographJSON
public import PDFCore

/// JSON that does not parse is bad input, in the one error shape. The conformance lives here, in
/// the lowest module that sees both: AutographJSON depends on nothing.
extension JSONValue.ParseError: AutographError {
    /// `invalidJSON`.
    public var codeName: String { "invalidJSON" }
    /// None: the seed API reads no JSON.
    public var seedCode: Int? { nil }
    /// `ErrorCategory/badInput`: the text given is not JSON.
    public var category: ErrorCategory { .badInput }
}
