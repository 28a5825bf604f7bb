internal import CFreeType
import PDFGraphics
import Synchronization

/// FreeType faces and cairo font faces for loaded fonts, shared by all renders (thread-safe).
///
/// One `FT_Library` for the process; creating and freeing faces is serialised by a lock, as
/// FreeType requires. Everything a render asks of a face (which glyph a code selects, advance
/// widths) is computed once when the face is loaded, before cairo sees it; from then on only
/// cairo-ft uses the face, and it locks the face while it does (`cairo_ft_scaled_font_lock_face`).
public final class FontRenderer: Sendable {
    /// The renderer every ``PageRenderer`` uses unless given another.
    public static let shared = FontRenderer()

    let library: Mutex<FreeTypeLibrary?>
    let cache = Mutex(FaceCache())
    let substitutes: FontSubstitutes

    /// A renderer with its own FreeType library that finds the standard 14 fonts' replacements
    /// (URW base35) in the usual Debian folders.
    public convenience init() {
        self.init(substituteDirectories: FontSubstitutes.defaultDirectories)
    }

    /// A renderer with its own FreeType library that looks for the URW base35 fonts (`*.t1`, else
    /// `*.otf`) in `substituteDirectories`, in order.
    public init(substituteDirectories: [String]) {
        library = Mutex(FreeTypeLibrary())
        substitutes = FontSubstitutes(directories: substituteDirectories)
    }

    /// The glyphs of `font`: its embedded program, else a substitute; loaded once and kept while
    /// the font is in the cache. Nil for Type 3 fonts and when no face can be loaded.
    func glyphs(for font: LoadedFont) -> FontGlyphs? {
        guard !font.isType3 else { return nil }
        let key = ObjectIdentifier(font)
        if let entry = cache.withLock({ $0.fonts[key] }), entry.font === font { return entry.glyphs }
        // Loading happens outside the cache lock (faces load in parallel); two tasks may load the
        // same font at once, and the first to finish wins.
        let glyphs = FontGlyphs.load(font, renderer: self)
        return cache.withLock { cache in
            if let entry = cache.fonts[key], entry.font === font { return entry.glyphs }
            cache.insert(FaceCache.Entry(font: font, glyphs: glyphs), for: key)
            return glyphs
        }
    }

    /// The face of a font file on disk (substitutes), loaded once; nil when it does not load.
    func fileFace(_ path: String, index: Int, tables: FaceTables.Contents) -> TextFace? {
        // Keyed by what was computed too: a face loaded without advances is not one with them.
        let key = "\(path)#\(index)#\(tables.rawValue)"
        if let face = cache.withLock({ $0.files[key] }) { return face }
        let face = TextFace.load(file: path, index: index, renderer: self, tables: tables)
        return cache.withLock { cache in
            if let existing = cache.files[key] { return existing }
            cache.files[key] = face
            return face
        }
    }

    /// Runs `body` with the library locked (face creation and destruction).
    func withLibrary<T>(_ body: (FT_Library) -> T?) -> T? {
        library.withLock { library in
            guard let pointer = library?.pointer else { return nil }
            return body(pointer)
        }
    }
}

/// Fonts and files already loaded. Entries keep their ``LoadedFont`` alive, so an identifier is
/// never reused for another font while its entry exists; the table is bounded.
struct FaceCache: ~Copyable {
    struct Entry {
        let font: LoadedFont
        let glyphs: FontGlyphs?
        var age = 0
    }

    var fonts: [ObjectIdentifier: Entry] = [:]
    var files: [String: TextFace?] = [:]
    private var clock = 0

    static let maximumFonts = 512

    mutating func insert(_ entry: Entry, for key: ObjectIdentifier) {
        if fonts.count >= FaceCache.maximumFonts {
            // Forget the older half.
            let ages = fonts.values.map(\.age).sorted()
            let cut = ages[ages.count / 2]
            fonts = fonts.filter { $0.value.age > cut }
        }
        clock += 1
        var entry = entry
        entry.age = clock
        fonts[key] = entry
    }
}

/// An `FT_Library`, owned; used only under ``FontRenderer``'s lock.
final class FreeTypeLibrary: @unchecked Sendable {
    let pointer: FT_Library

    init?() {
        var library: FT_Library? = nil
        guard FT_Init_FreeType(&library) == 0, let library else { return nil }
        pointer = library
    }

    deinit { FT_Done_FreeType(pointer) }
}
