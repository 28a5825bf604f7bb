import PDFCore
import PDFFonts
import PDFGraphics

/// Where fonts that are not embedded are drawn from (ISO 32000-2 §9.6.2.2, §9.10.2): the standard
/// 14 and their aliases from the URW base35 fonts (the same designs MuPDF builds in), other simple
/// fonts by their descriptor (serif, fixed pitch, bold, italic), and CJK character collections
/// from a system font found through fontconfig.
struct FontSubstitutes: Sendable {
    let directories: [String]

    static let defaultDirectories = [
        "/usr/share/fonts/type1/urw-base35", "/usr/share/fonts/opentype/urw-base35",
        "/usr/share/fonts/X11/Type1", "/usr/local/share/fonts/urw-base35",
    ]

    /// The URW file name (without extension) standing for a standard 14 font.
    static func fileName(for standard: StandardFont.Name) -> String {
        switch standard {
        case .courier: "NimbusMonoPS-Regular"
        case .courierBold: "NimbusMonoPS-Bold"
        case .courierOblique: "NimbusMonoPS-Italic"
        case .courierBoldOblique: "NimbusMonoPS-BoldItalic"
        case .helvetica: "NimbusSans-Regular"
        case .helveticaBold: "NimbusSans-Bold"
        case .helveticaOblique: "NimbusSans-Italic"
        case .helveticaBoldOblique: "NimbusSans-BoldItalic"
        case .timesRoman: "NimbusRoman-Regular"
        case .timesBold: "NimbusRoman-Bold"
        case .timesItalic: "NimbusRoman-Italic"
        case .timesBoldItalic: "NimbusRoman-BoldItalic"
        case .symbol: "StandardSymbolsPS"
        case .zapfDingbats: "D050000L"
        }
    }

    /// The standard font replacing a font that is neither embedded nor one of the standard 14: by
    /// the descriptor's fixed-pitch and serif flags; bold when the name says so, the weight is 600
    /// or more or the ForceBold flag is set; italic when the name says so (`Italic`, `Oblique`), the
    /// italic flag is set or the italic angle is not zero.
    static func standardSubstitute(baseFont: String, descriptor: FontDescriptorInfo) -> StandardFont.Name {
        let bold = baseFont.contains("Bold") || (descriptor.fontWeight ?? 400) >= 600 || descriptor.isForceBold
        let italic =
            baseFont.contains("Italic") || baseFont.contains("Oblique") || descriptor.isItalic
            || (descriptor.italicAngle != 0 && descriptor.italicAngle.isFinite)
        if descriptor.isFixedPitch {
            return bold ? (italic ? .courierBoldOblique : .courierBold) : (italic ? .courierOblique : .courier)
        }
        if descriptor.isSerif {
            return bold ? (italic ? .timesBoldItalic : .timesBold) : (italic ? .timesItalic : .timesRoman)
        }
        return bold ? (italic ? .helveticaBoldOblique : .helveticaBold) : (italic ? .helveticaOblique : .helvetica)
    }

    /// The paths where the URW font for `standard` may be, best first: the Type 1 files, then the
    /// OpenType ones (the loader takes the first FreeType opens).
    func candidatePaths(for standard: StandardFont.Name) -> [String] {
        let name = FontSubstitutes.fileName(for: standard)
        return directories.flatMap { directory in ["t1", "otf"].map { "\(directory)/\(name).\($0)" } }
    }

    /// The CJK character collections (§9.7.3) and a sample of each script for fontconfig.
    static func cjkSample(collection: (registry: String, ordering: String, supplement: Int)?, baseFont: String)
        -> String?
    {
        switch collection?.ordering {
        case "Japan1", "Japan2": return "日本語のテキスト"
        case "GB1": return "中文简体字"
        case "CNS1": return "中文繁體字"
        case "Korea1": return "한국어 텍스트"
        default:
            // Fonts MuPDF recognises by name when the collection is Identity.
            let known: [(String, String)] = [
                ("SimSun", "中文简体字"), ("SimHei", "中文简体字"), ("SimKai", "中文简体字"), ("SimFang", "中文简体字"),
                ("SimLi", "中文简体字"), ("Song", "中文简体字"), ("MingLiU", "中文繁體字"), ("Gothic", "日本語のテキスト"),
                ("Mincho", "日本語のテキスト"), ("Batang", "한국어 텍스트"), ("Gulim", "한국어 텍스트"), ("Dotum", "한국어 텍스트"),
            ]
            return known.first { baseFont.contains($0.0) }?.1
        }
    }

    /// A system font drawing `sample` (the CJK collections), through fontconfig.
    static func systemFont(covering sample: String) -> SystemFonts.FontFile? {
        SystemFonts.font(covering: sample, family: "sans-serif")
    }
}
