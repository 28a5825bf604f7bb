import CFontconfig
import PDFCore
import Synchronization

/// The fonts installed on the system, found through fontconfig: which font file can draw a text.
///
/// ```swift
/// if let file = SystemFonts.font(covering: "Ελληνικά Кириллица 漢字") {
///     let font = try EmbeddedFont(fontFile: file)
/// }
/// ```
///
/// Calls into fontconfig are serialized, so this can be used from any task.
public enum SystemFonts {
    /// A font in a file: the path and, for a collection (`.ttc`, `.otc`), the font's index in it.
    public struct FontFile: Hashable, Sendable {
        /// The absolute path of the font file.
        public var path: String
        /// The index of the font in a collection; 0 for a single-font file.
        public var index: Int

        /// A font at `index` in the file at `path`.
        public init(path: String, index: Int = 0) {
            self.path = path
            self.index = index
        }
    }

    /// Whether fontconfig was initialized (`FcInit` succeeded); also the lock serializing fontconfig.
    private static let state = Mutex<Bool>(false)

    /// The best installed font that has a glyph for every character of `text`, or nil when no
    /// font covers all of it.
    ///
    /// Fontconfig sorts the installed fonts by how well they match `family` (default
    /// `sans-serif`) and `text`'s characters. Among the fonts whose character set covers every
    /// Unicode scalar of `text`, those with TrueType outlines (`FC_FONTFORMAT` "TrueType" and a
    /// `glyf` table in the file) are preferred, since `EmbeddedFont` embeds them as a subset;
    /// OpenType fonts with CFF outlines come next. A font of the family named comes before fonts
    /// of other families (so a family that exists only with CFF outlines is still honoured); for a
    /// generic family (`sans-serif`, `serif`, `monospace`) fontconfig's order decides. Type 1 and
    /// bitmap fonts are never returned.
    ///
    /// - Parameters:
    ///   - text: the text to draw; every scalar counts, spaces included.
    ///   - family: a family name or a generic family (`serif`, `sans-serif`, `monospace`).
    public static func font(covering text: String, family: String? = nil) -> FontFile? {
        let scalars = Array(Set(text.unicodeScalars.map(\.value))).sorted()
        return state.withLock { initialized -> FontFile? in
            if !initialized { initialized = FcInit() != 0 }
            guard initialized else { return nil }
            return sortedCandidates(family: family ?? "sans-serif", scalars: scalars)
        }
    }

    /// Walks fontconfig's sorted list for the best font covering `scalars`, ranked as
    /// ``font(covering:family:)`` says. Runs under the lock.
    private static func sortedCandidates(family: String, scalars: [UInt32]) -> FontFile? {
        guard let pattern = FontconfigPattern(), let charSet = FontconfigCharSet() else { return nil }
        for scalar in scalars { _ = FcCharSetAddChar(charSet.pointer, scalar) }
        _ = FcPatternAddString(pattern.pointer, FC_FAMILY, family)
        _ = FcPatternAddCharSet(pattern.pointer, FC_CHARSET, charSet.pointer)
        _ = FcConfigSubstitute(nil, pattern.pointer, FcMatchPattern)
        FcDefaultSubstitute(pattern.pointer)
        var result = FcResultNoMatch
        // Untrimmed: a TrueType font must not be dropped because a CFF font before it covers as much.
        guard let list = FcFontSort(nil, pattern.pointer, 0, nil, &result) else { return nil }
        let fonts = FontconfigFontSet(list)
        let wanted = normalizedFamily(family)
        return withExtendedLifetime(fonts) { () -> FontFile? in
            // Best first: the family asked for in TrueType, then in CFF, then any family likewise.
            var best: (rank: Int, file: FontFile)? = nil
            for index in 0..<Int(fonts.pointer.pointee.nfont) {
                guard let font = fonts.pointer.pointee.fonts?[index], covers(font, scalars),
                    let file = string(font, FC_FILE)
                else { continue }
                let format = string(font, FC_FONTFORMAT)
                guard format == "TrueType" || format == "CFF" else { continue }
                var fontIndex: Int32 = 0
                if FcPatternGetInteger(font, FC_INDEX, 0, &fontIndex) != FcResultMatch { fontIndex = 0 }
                // Named instances of variable fonts are numbered from 0x10000; the face is the low bits.
                let candidate = FontFile(path: file, index: Int(fontIndex & 0xFFFF))
                let familyRank = families(of: font).contains(wanted) ? 0 : 2
                guard familyRank < best?.rank ?? 4 else { continue }
                switch TrueTypeFile.outlineFormat(ofFileAt: file, index: candidate.index) {
                case .trueType where format == "TrueType":
                    if familyRank == 0 { return candidate }
                    best = (familyRank, candidate)
                case .cff where familyRank + 1 < best?.rank ?? 4:
                    best = (familyRank + 1, candidate)
                default:
                    continue
                }
            }
            return best?.file
        }
    }

    /// The family names of a font pattern (a font may have several, in several languages).
    private static func families(of font: OpaquePointer) -> Set<String> {
        var names: Set<String> = []
        var index: Int32 = 0
        var value: UnsafeMutablePointer<FcChar8>? = nil
        while index < 64, FcPatternGetString(font, FC_FAMILY, index, &value) == FcResultMatch, let name = value {
            names.insert(normalizedFamily(String(cString: name)))
            index += 1
        }
        return names
    }

    /// A family name compared as fontconfig does: ignoring case and spaces.
    private static func normalizedFamily(_ name: String) -> String {
        String(name.lowercased().filter { $0 != " " })
    }

    /// True when the font pattern's character set has every scalar.
    private static func covers(_ font: OpaquePointer, _ scalars: [UInt32]) -> Bool {
        var fontCharSet: OpaquePointer? = nil
        guard FcPatternGetCharSet(font, FC_CHARSET, 0, &fontCharSet) == FcResultMatch, let fontCharSet else {
            return false
        }
        for scalar in scalars where FcCharSetHasChar(fontCharSet, scalar) == 0 { return false }
        return true
    }

    /// A string property of a font pattern (owned by the pattern, so copied at once).
    private static func string(_ font: OpaquePointer, _ property: String) -> String? {
        var value: UnsafeMutablePointer<FcChar8>? = nil
        guard FcPatternGetString(font, property, 0, &value) == FcResultMatch, let value else { return nil }
        return String(cString: value)
    }
}

/// An `FcPattern`, destroyed with the object.
private final class FontconfigPattern {
    let pointer: OpaquePointer

    init?() {
        guard let pointer = FcPatternCreate() else { return nil }
        self.pointer = pointer
    }

    deinit { FcPatternDestroy(pointer) }
}

/// An `FcCharSet`, destroyed with the object.
private final class FontconfigCharSet {
    let pointer: OpaquePointer

    init?() {
        guard let pointer = FcCharSetCreate() else { return nil }
        self.pointer = pointer
    }

    deinit { FcCharSetDestroy(pointer) }
}

/// An `FcFontSet` returned by `FcFontSort`, destroyed with the object.
private final class FontconfigFontSet {
    let pointer: UnsafeMutablePointer<FcFontSet>

    init(_ pointer: UnsafeMutablePointer<FcFontSet>) {
        self.pointer = pointer
    }

    deinit { FcFontSetDestroy(pointer) }
}
