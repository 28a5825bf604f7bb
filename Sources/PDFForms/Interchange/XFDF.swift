/// XFDF, Adobe's XML Forms Data Format (ISO 19444-1): the field values of a form as nested
/// `<field name="…"><value>…</value></field>` elements.
public enum XFDF {
    /// The XFDF document for `values`. Booleans become the checkbox's on state in `form` (or `Yes`) and `Off`.
    public static func encode(_ values: FormValues, form: AcroForm? = nil, documentName: String? = nil) -> String {
        // Build the tree of partial names.
        final class Node {
            var children: [(String, Node)] = []
            var values: [String]? = nil
            func child(_ name: String) -> Node {
                if let existing = children.first(where: { $0.0 == name }) { return existing.1 }
                let node = Node()
                children.append((name, node))
                return node
            }
        }
        let root = Node()
        for (name, value) in values.entries {
            var node = root
            for part in name.split(separator: ".", omittingEmptySubsequences: false) { node = node.child(String(part)) }
            switch value {
            case .text(let text): node.values = [text]
            case .list(let items): node.values = items
            case .bool(let on):
                let state = form?.field(named: name)?.states.first ?? "Yes"
                node.values = [on ? state : "Off"]
            }
        }
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        text += "<xfdf xmlns=\"http://ns.adobe.com/xfdf/\" xml:space=\"preserve\">\n"
        text += "  <fields>\n"
        func write(_ node: Node, name: String, indent: String) {
            text += "\(indent)<field name=\"\(XMLElement.escape(name))\">"
            if let values = node.values {
                for value in values { text += "<value>\(XMLElement.escape(value))</value>" }
            }
            if !node.children.isEmpty {
                text += "\n"
                for (childName, child) in node.children { write(child, name: childName, indent: indent + "  ") }
                text += indent
            }
            text += "</field>\n"
        }
        for (name, node) in root.children { write(node, name: name, indent: "    ") }
        text += "  </fields>\n"
        if let documentName { text += "  <f href=\"\(XMLElement.escape(documentName))\"/>\n" }
        text += "</xfdf>\n"
        return text
    }

    /// Reads the values of an XFDF document; with `form`, a checkbox's state becomes `true`/`false`.
    /// - Throws: `.invalidData` when it is not XFDF.
    public static func decode(_ text: String, form: AcroForm? = nil) throws(FormError) -> FormValues {
        let root = try XMLElement.parse(text)
        guard root.localName == "xfdf" else {
            throw FormError(.invalidData, "XFDF: the root element is <\(root.name)>")
        }
        var entries: [(name: String, value: FormInput)] = []
        func visit(_ element: XMLElement, prefix: String) {
            guard let partial = element.attributes["name"] else { return }
            let name = prefix.isEmpty ? partial : prefix + "." + partial
            let values =
                element.children(named: "value").map(\.text) + element.children(named: "value-richtext").map(\.text)
            if !values.isEmpty {
                if values.count > 1 {
                    entries.append((name, .list(values)))
                } else if let field = form?.field(named: name), field.kind == .checkbox, field.states.count <= 1 {
                    entries.append((name, .bool(values[0] != "Off")))
                } else {
                    entries.append((name, .text(values[0])))
                }
            }
            for child in element.children(named: "field") { visit(child, prefix: name) }
        }
        for fields in root.children(named: "fields") {
            for field in fields.children(named: "field") { visit(field, prefix: "") }
        }
        return FormValues(entries)
    }
}
