/// A value given for a field from outside (JSON, XFDF, the API): text, a checkbox's on/off, or a
/// list of selections. ``FormFiller`` checks it against the field's kind and options.
public enum FormInput: Hashable, Sendable, CustomStringConvertible {
    /// Text for a text field; for a choice field, an option, by export value or shown text (any text in an editable
    /// combo box); for a checkbox or radio group, a state name or `Off`.
    case text(String)
    /// A checkbox on (its on state) or off; true suits a radio group only when it has one button, false turns any
    /// button field off.
    case bool(Bool)
    /// The selections of a choice field, by export value or shown text: several only in a multiple-selection list box,
    /// none to clear it; a list of one also fills a text field.
    case list([String])

    /// The value as JSON writes it: `"text"`, `true` or `false`, `["a", "b"]`.
    public var description: String {
        switch self {
        case .text(let text): "\"\(text)\""
        case .bool(let value): value ? "true" : "false"
        case .list(let items): "[" + items.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        }
    }
}
