import PDFAuthoring
import PDFCore
import PDFFonts

/// Makes the normal appearance streams of widgets from field values (ISO 32000-2 §12.7.4.3
/// variable text, §12.7.5.2 buttons, §12.7.5.4 choice fields).
struct AppearanceGenerator {
    /// An appearance made from text, with what a viewer that makes its own would need.
    struct TextAppearance {
        /// The form XObject.
        var stream: PDFObject
        /// The widget's `/DA` with its size and colour, when its font is not the one the text was
        /// drawn with: pointed at `font`, a viewer that makes its own appearance draws with a font
        /// that has the glyphs.
        var defaultAppearance: DefaultAppearance?
        /// The font the text was drawn with, to be added to the form's `/DR /Font`.
        var font: AppearanceFonts.Choice
    }

    var fonts: AppearanceFonts
    let document: PDFDocument

    /// The appearance of a text field or a combo box showing `text`.
    mutating func text(
        _ text: String, field: FormField, widget: Widget, update: inout IncrementalUpdate
    ) throws(FormError) -> TextAppearance {
        let geometry = WidgetGeometry(widget: widget, document: document)
        let appearance = defaultAppearance(field, widget)
        let shown =
            field.flags.contains(.password) && field.kind == .text ? String(repeating: "*", count: text.count) : text
        // Line breaks are layout, not glyphs: choose the font for the characters only.
        let glyphs = String(shown.unicodeScalars.filter { $0.value >= 0x20 }.map(Character.init))
        let choices = try fonts.fonts(
            for: glyphs, resourceName: appearance.fontName, field: field.name, update: &update)
        let chain = FontChain(choices.map(\.font))
        let names = choices.map(\.resourceName)
        let multiline = field.kind == .text && field.flags.contains(.multiline)
        let innerWidth = max(0, geometry.width - 2 * geometry.padding)
        let innerHeight = max(0, geometry.height - 2 * geometry.padding)
        var size = appearance.fontSize
        if size <= 0 {
            size = TextLayout.fittingSize(
                shown, font: chain, width: innerWidth, height: innerHeight, multiline: multiline,
                maximum: multiline ? 12 : 1000)
        }
        let layout = TextLayout(font: chain, size: size)

        var content = ContentStreamBuilder()
        geometry.drawFrame(into: &content)
        content.beginMarkedContent(.tx)
        content.saveState()
        content.rectangle(
            geometry.borderWidth, geometry.borderWidth, geometry.width - 2 * geometry.borderWidth,
            geometry.height - 2 * geometry.borderWidth)
        content.clip()
        content.beginText()
        content.setFillColor(appearance.color)
        content.setFont(names[0], size: size)
        if let maxLength = field.maxLength, maxLength > 0, field.flags.contains(.comb), !multiline,
            !field.flags.contains(.password)
        {
            // Comb: one character per cell, centred in it (§12.7.5.3).
            let inner = geometry.width - 2 * geometry.borderWidth
            let cell = inner / Double(maxLength)
            let line = layout.place([shown], width: inner, height: geometry.height, alignment: .left).first
            for (index, character) in shown.prefix(maxLength).enumerated() {
                let glyph = String(character)
                let x = geometry.borderWidth + Double(index) * cell + (cell - layout.width(of: glyph)) / 2
                content.setTextMatrix(1, 0, 0, 1, x, line?.baseline ?? 0)
                chain.show(glyph, names: names, size: size, into: &content)
            }
        } else {
            let lines = multiline ? layout.wrap(shown, maxWidth: innerWidth) : [shown]
            let alignment = field.kind == .text ? field.alignment : .left
            let placedHeight = multiline ? innerHeight : geometry.height - 2 * geometry.padding
            for line in layout.place(
                lines, width: innerWidth, height: placedHeight, alignment: alignment, centerSingleLine: !multiline)
            {
                content.setTextMatrix(1, 0, 0, 1, geometry.padding + line.x, geometry.padding + line.baseline)
                chain.show(line.text, names: names, size: size, into: &content)
            }
        }
        content.endText()
        content.restoreState()
        content.endMarkedContent()
        let stream = geometry.formXObject(content: content, resources: Self.resources(choices))
        let choice = Self.mostUsed(choices, drawing: glyphs)
        return TextAppearance(
            stream: stream, defaultAppearance: retargeted(appearance, to: choice), font: choice)
    }

    /// The appearance of a list box with `selected` export values highlighted (§12.7.5.4).
    mutating func list(
        _ selected: [String], field: FormField, widget: Widget, update: inout IncrementalUpdate
    ) throws(FormError) -> TextAppearance {
        let geometry = WidgetGeometry(widget: widget, document: document)
        let appearance = defaultAppearance(field, widget)
        let allText = field.options.map(\.displayText).joined(separator: " ")
        let choices = try fonts.fonts(
            for: allText, resourceName: appearance.fontName, field: field.name, update: &update)
        let chain = FontChain(choices.map(\.font))
        let names = choices.map(\.resourceName)
        let size = appearance.fontSize > 0 ? appearance.fontSize : 12
        let layout = TextLayout(font: chain, size: size)
        let topIndex = max(0, document.resolve(field.dictionary[.ti] ?? .null).intValue ?? 0)
        var content = ContentStreamBuilder()
        geometry.drawFrame(into: &content)
        content.beginMarkedContent(.tx)
        content.saveState()
        content.rectangle(
            geometry.borderWidth, geometry.borderWidth, geometry.width - 2 * geometry.borderWidth,
            geometry.height - 2 * geometry.borderWidth)
        content.clip()
        var top = geometry.height - geometry.borderWidth
        for option in field.options.dropFirst(topIndex) {
            guard top > geometry.borderWidth else { break }
            let rowTop = top
            top -= layout.lineHeight
            if selected.contains(option.exportValue) {
                content.setFillColor(.rgb(0.6, 0.75, 0.85))
                content.rectangle(geometry.borderWidth, top, geometry.width - 2 * geometry.borderWidth, rowTop - top)
                content.fill()
            }
            content.beginText()
            content.setFillColor(appearance.color)
            content.setTextMatrix(1, 0, 0, 1, geometry.padding, top - chain.descent * size / 1000)
            chain.show(option.displayText, names: names, size: size, into: &content)
            content.endText()
        }
        content.restoreState()
        content.endMarkedContent()
        let stream = geometry.formXObject(content: content, resources: Self.resources(choices))
        let choice = Self.mostUsed(choices, drawing: allText)
        return TextAppearance(
            stream: stream, defaultAppearance: retargeted(appearance, to: choice), font: choice)
    }

    /// The resources naming every font of a chain.
    private static func resources(_ choices: [AppearanceFonts.Choice]) -> PDFDictionary {
        var fonts = PDFDictionary()
        for choice in choices { fonts[choice.resourceName] = .reference(choice.reference) }
        return [.font: .dictionary(fonts)]
    }

    /// The font of a chain that draws the most characters of `text` (the earlier on a tie): the
    /// one `/DA` should name, since a viewer's own appearance draws with a single font.
    private static func mostUsed(_ choices: [AppearanceFonts.Choice], drawing text: String) -> AppearanceFonts.Choice {
        guard choices.count > 1 else { return choices[0] }
        var counts = Array(repeating: 0, count: choices.count)
        for run in FontChain(choices.map(\.font)).runs(text) { counts[run.font] += run.text.count }
        let most = counts.indices.max { counts[$0] < counts[$1] || (counts[$0] == counts[$1] && $0 > $1) } ?? 0
        return choices[most]
    }

    /// The `/DA` to point at `choice`'s font (under the `/DR` name the update gives it), or nil when
    /// the text was drawn with the standard font the `/DA` names.
    private func retargeted(_ appearance: DefaultAppearance, to choice: AppearanceFonts.Choice)
        -> DefaultAppearance?
    {
        choice.font is StandardFont ? nil : appearance
    }

    /// The on and off appearances of a checkbox or radio button: the `/MK /CA` character (a check
    /// for checkboxes, a dot for radio buttons by default) in ZapfDingbats.
    mutating func button(field: FormField, widget: Widget, update: inout IncrementalUpdate) -> (
        on: PDFObject, off: PDFObject
    ) {
        let geometry = WidgetGeometry(widget: widget, document: document)
        let appearance = defaultAppearance(field, widget)
        let characteristics = document.resolve(widget.dictionary[.mk] ?? .null).dictionaryValue
        let caption = document.resolve(characteristics?[.ca] ?? .null).stringValue?.bytes.first
        let code = caption ?? (field.kind == .radio ? UInt8(ascii: "l") : UInt8(ascii: "4"))
        let dingbats = fonts.dingbats(update: &update)
        let font = StandardFont(.zapfDingbats)
        let glyphWidth = max(font.width(of: code), 1)
        let inner = max(0, min(geometry.width, geometry.height) - 2 * geometry.padding)
        let size = appearance.fontSize > 0 ? appearance.fontSize : max(1, min(inner, inner * 1000 / glyphWidth))
        let resources: PDFDictionary = [
            .font: .dictionary([dingbats.resourceName: .reference(dingbats.reference)])
        ]

        var on = ContentStreamBuilder()
        geometry.drawFrame(into: &on)
        on.saveState()
        on.beginText()
        on.setFillColor(appearance.color)
        on.setFont(dingbats.resourceName, size: size)
        let x = (geometry.width - glyphWidth * size / 1000) / 2
        // ZapfDingbats symbols sit about 0.7 em tall above the baseline.
        let y = (geometry.height - 0.7 * size) / 2
        on.setTextMatrix(1, 0, 0, 1, x, y)
        on.showText([code])
        on.endText()
        on.restoreState()
        var off = ContentStreamBuilder()
        geometry.drawFrame(into: &off)
        return (
            geometry.formXObject(content: on, resources: resources),
            geometry.formXObject(content: off, resources: resources)
        )
    }

    /// The widget's `/DA`, else the field's (inherited, or the form's).
    private func defaultAppearance(_ field: FormField, _ widget: Widget) -> DefaultAppearance {
        if let own = document.resolve(widget.dictionary[.da] ?? .null).stringValue?.text {
            return DefaultAppearance(own)
        }
        return DefaultAppearance(field.defaultAppearance)
    }
}
