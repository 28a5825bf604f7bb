import PDFCore

/// Which optional content groups are on in the document's default configuration (ISO 32000-2
/// §8.11.4), and whether a group or membership dictionary makes content visible.
final class OptionalContent: Sendable {
    private let document: PDFDocument
    /// Groups that are off.
    private let off: Set<PDFReference>
    /// True when the base state is OFF: only groups listed in /ON are on.
    private let baseOff: Bool
    private let on: Set<PDFReference>

    init(document: PDFDocument) {
        self.document = document
        let properties = document.catalog.flatMap {
            document.resolve($0[.ocProperties] ?? .null).dictionaryValue
        }
        let configuration = properties.flatMap { document.resolve($0[.d] ?? .null).dictionaryValue }
        func references(_ key: String) -> Set<PDFReference> {
            let items = configuration.flatMap { document.resolve($0[PDFName(key)] ?? .null).arrayValue } ?? []
            return Set(items.compactMap(\.referenceValue))
        }
        off = references("OFF")
        on = references("ON")
        baseOff = configuration?[.baseState]?.nameValue?.string == "OFF"
    }

    private func isOn(_ group: PDFReference) -> Bool {
        baseOff ? on.contains(group) : !off.contains(group)
    }

    /// Whether content marked with `object` (a group, or a membership dictionary) is shown.
    func isVisible(_ object: PDFObject, depth: Int = 0) -> Bool {
        guard depth < 16 else { return true }
        guard let dictionary = document.resolve(object).dictionaryValue else { return true }
        if dictionary[.type]?.nameValue?.string == "OCMD" {
            if let expression = dictionary[.ve] {
                return evaluate(expression, depth: depth + 1)
            }
            let groups: [PDFReference]
            switch document.resolve(dictionary[.ocgs] ?? .null) {
            case .array(let items): groups = items.compactMap(\.referenceValue)
            case .dictionary:
                groups = dictionary[.ocgs]?.referenceValue.map { [$0] } ?? []
            default: groups = []
            }
            guard !groups.isEmpty else { return true }
            let states = groups.map(isOn)
            switch dictionary[.p]?.nameValue?.string {
            case "AllOn": return states.allSatisfy { $0 }
            case "AnyOff": return states.contains(false)
            case "AllOff": return states.allSatisfy { !$0 }
            default: return states.contains(true)
            }
        }
        guard let reference = object.referenceValue else { return true }
        return isOn(reference)
    }

    /// A visibility expression: `[/And …]`, `[/Or …]`, `[/Not x]` over groups (§8.11.2.2).
    private func evaluate(_ object: PDFObject, depth: Int) -> Bool {
        guard depth < 16 else { return true }
        if let reference = object.referenceValue, document.resolve(object).arrayValue == nil { return isOn(reference) }
        guard let items = document.resolve(object).arrayValue, let operation = items.first?.nameValue?.string else {
            return true
        }
        let operands = items.dropFirst().map { evaluate($0, depth: depth + 1) }
        switch operation {
        case "And": return operands.allSatisfy { $0 }
        case "Or": return operands.contains(true)
        case "Not": return !(operands.first ?? false)
        default: return true
        }
    }
}

/// One open level of marked content (`BMC` or `BDC` … `EMC`).
struct MarkedContent {
    /// Optional content turned off: nothing inside is drawn.
    var hides = false
    /// `/ActualText` (§14.9.4): the text that replaces what is shown inside, for extraction.
    var actualText: String? = nil
    /// The display list's length when the level began.
    var start = 0
}

extension ContentInterpreter {
    /// `BDC`: marked content with properties. `/OC` with a hidden group hides what follows up to
    /// its `EMC`; an `/ActualText` entry (any tag) replaces the text shown up to its `EMC`.
    func beginMarkedContent(_ operands: [PDFObject]) {
        var level = MarkedContent(start: items.count)
        if operands.count >= 2 {
            var properties: PDFObject? = nil
            switch operands[1] {
            case .name(let name): properties = resource("Properties", name)
            case .dictionary: properties = operands[1]
            default: break
            }
            if operands[0].nameValue?.string == "OC", let properties,
                !graphics.optionalContent.isVisible(properties)
            {
                level.hides = true
            }
            if let dictionary = properties.flatMap({ document.resolve($0).dictionaryValue }),
                let text = dictionary[.actualText].flatMap({ document.resolve($0).stringValue })
            {
                level.actualText = text.text
            }
        }
        markedContent.append(level)
        if level.hides { hiddenLevels += 1 }
        if level.actualText != nil { actualTextLevels += 1 }
    }

    func endMarkedContent() {
        guard let level = markedContent.popLast() else { return }
        if level.hides { hiddenLevels -= 1 }
        if let text = level.actualText {
            actualTextLevels -= 1
            // An outer replacement covers the inner ones.
            if actualTextLevels == 0, items.count > level.start {
                actualTexts.append(ActualText(text: text, items: level.start..<items.count))
            }
        }
    }
}
