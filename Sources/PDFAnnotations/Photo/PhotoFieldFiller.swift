public import PDFAuthoring
public import PDFCore
import PDFForms

/// Puts photos into form fields (signoAPI photo fields): the image, scaled down to at most
/// `maxWidth`×`maxHeight` pixels as it is seen (EXIF orientation honoured), becomes the appearance
/// of every widget of the field, as large as fits, centred, inside the widget's border.
///
/// A text field or a push button takes a photo; placing another one replaces it, until the field
/// is read-only. Each call is one incremental update.
public struct PhotoFieldFiller: Sendable {
    /// The document whose fields take photos; its bytes are never changed.
    public let document: PDFDocument
    /// The largest photo kept, in pixels (signoAPI `setPhotoFieldsNames:maxWidth:maxHeight:`).
    public var maxWidth: Int
    /// The tallest photo kept, in pixels as it is seen; a taller one is scaled down.
    public var maxHeight: Int
    /// JPEG quality from 1 to 100 for photos that are scaled down.
    public var jpegQuality = 85
    /// Whether each update's `/ID` is derived from its content, and where its random bytes come from.
    public var writeOptions: WriteOptions = .default

    /// A filler of `document`'s photo fields, keeping photos within `maxWidth`×`maxHeight` pixels (1000×1000 by
    /// default).
    public init(document: PDFDocument, maxWidth: Int = 1000, maxHeight: Int = 1000) {
        self.document = document
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
    }

    /// The update placing `image` (JPEG or PNG bytes) in the field named `fieldName` (its fully
    /// qualified name).
    /// - Throws: `.unknownField` when there is no such field or it takes no photo (checkbox, radio
    ///   button, choice, signature), `.readOnly` for a read-only field, `.invalidImage` for bytes
    ///   that are not a readable JPEG or PNG, `.invalidArgument` for a maximum size below one pixel.
    public func makeUpdate(placing image: [UInt8], in fieldName: String) throws(AnnotationError) -> IncrementalUpdate {
        var update = IncrementalUpdate(base: document, options: writeOptions)
        try place(image, in: fieldName, into: &update)
        return update
    }

    /// The update placing a photo already read with `decode(_:)` (decoding, the slow part, can
    /// then run wherever the caller likes).
    public func makeUpdate(placing photo: ImageXObject, in fieldName: String) throws(AnnotationError)
        -> IncrementalUpdate
    {
        var update = IncrementalUpdate(base: document, options: writeOptions)
        try place(.decoded(photo), in: fieldName, into: &update)
        return update
    }

    /// Reads JPEG or PNG bytes as the photo this filler places: scaled down to `maxWidth`×`maxHeight`,
    /// EXIF orientation honoured; refused from its header when it declares more than `maxPixels`.
    /// - Throws: `.invalidImage` for bytes that are not a readable JPEG or PNG or declare too many pixels.
    public func decode(_ image: [UInt8], maxPixels: Int = ImageXObject.defaultMaximumPixels) throws(AnnotationError)
        -> ImageXObject
    {
        do {
            return try ImageXObject(
                data: image, maxWidth: maxWidth, maxHeight: maxHeight, jpegQuality: jpegQuality, maxPixels: maxPixels)
        } catch {
            throw AnnotationError(.invalidImage, "the photo cannot be read: \(error.message)")
        }
    }

    /// A photo as bytes, or already decoded.
    enum Photo {
        case bytes([UInt8])
        case decoded(ImageXObject)
    }

    /// Adds the objects placing `image` in the field to `update` (to place several photos at once).
    public func place(_ image: [UInt8], in fieldName: String, into update: inout IncrementalUpdate)
        throws(AnnotationError)
    {
        try place(.bytes(image), in: fieldName, into: &update)
    }

    func place(_ image: Photo, in fieldName: String, into update: inout IncrementalUpdate) throws(AnnotationError) {
        guard maxWidth > 0, maxHeight > 0 else {
            throw AnnotationError(.invalidArgument, "the maximum photo size must be at least 1×1 pixel")
        }
        guard let form = AcroForm(document: document), let field = form.field(named: fieldName) else {
            throw AnnotationError(.unknownField, "the document has no field named '\(fieldName)'")
        }
        guard field.kind == .text || field.kind == .pushButton else {
            throw AnnotationError(
                .unknownField, "the field '\(fieldName)' is a \(field.kind.rawValue) field, which takes no photo")
        }
        guard !field.isReadOnly else {
            throw AnnotationError(.readOnly, "the field '\(fieldName)' is read-only")
        }
        let widgets = field.widgets.filter { $0.reference != nil }
        guard !widgets.isEmpty else {
            throw AnnotationError(.unknownField, "the field '\(fieldName)' has no widget to show a photo in")
        }
        let photo: ImageXObject
        switch image {
        case .bytes(let bytes): photo = try decode(bytes)
        case .decoded(let decoded): photo = decoded
        }
        let imageReference = photo.add { update.add($0) }
        for widget in widgets {
            guard let reference = widget.reference else { continue }
            let geometry = WidgetGeometry(widget: widget, document: document)
            let inset = geometry.borderWidth
            let area = PDFRectangle(
                x0: inset, y0: inset, x1: max(inset, geometry.width - inset), y1: max(inset, geometry.height - inset))
            var content = ContentStreamBuilder()
            geometry.drawFrame(into: &content)
            if area.width > 0, area.height > 0 {
                let matrix = photo.matrix(fitting: area)
                content.saveState()
                content.concatenate(matrix[0], matrix[1], matrix[2], matrix[3], matrix[4], matrix[5])
                content.drawXObject(.photo)
                content.restoreState()
            }
            let resources: PDFDictionary = [
                .xObject: .dictionary([.photo: .reference(imageReference)])
            ]
            let appearance = update.add(geometry.formXObject(content: content, resources: resources))
            var dictionary = update.object(reference).dictionaryValue ?? widget.dictionary
            dictionary[.ap] = .dictionary([.n: .reference(appearance)])
            dictionary[.as] = nil
            if field.kind == .pushButton {
                // The icon viewers redraw a button from (ISO 32000-2 §12.5.6.19, Table 192), shown alone.
                var characteristics =
                    document.resolve(dictionary[.mk] ?? .null).dictionaryValue ?? PDFDictionary()
                characteristics[.i] = .reference(appearance)
                characteristics[.tp] = .integer(1)
                dictionary[.mk] = .dictionary(characteristics)
            }
            update.replace(reference, with: .dictionary(dictionary))
        }
    }
}
