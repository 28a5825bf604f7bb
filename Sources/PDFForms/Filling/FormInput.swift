/// A value given for a field from outside (JSON, XFDF, the API): text, a checkbox's on/off, or a
/// list of selections. ``FormFiller`` checks it against the field's kind and options.
public enum FormInput: Hashable, Sendable, CustomStringConvertible {
    case text(String)
    case bool(Bool)
    case list([String])

    public var description: String {
        switch self {
        case .text(let text): "\"\(text)\""
        case .bool(let value): value ? "true" : "false"
        case .list(let items): "[" + items.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        }
    }
}
