internal import CCairo
internal import CFreeType

/// The versions of the C libraries that draw pages: renderings (and the golden pages of the tests)
/// depend on them.
public enum RenderingLibraries {
    /// cairo's version, as `1.16.0`.
    public static var cairo: String { String(cString: cairo_version_string()) }

    /// FreeType's version, as `2.12.1` (empty when FreeType could not be started).
    public static var freeType: String {
        FontRenderer.shared.withLibrary { library -> String in
            var (major, minor, patch): (FT_Int, FT_Int, FT_Int) = (0, 0, 0)
            FT_Library_Version(library, &major, &minor, &patch)
            return "\(major).\(minor).\(patch)"
        } ?? ""
    }
}
