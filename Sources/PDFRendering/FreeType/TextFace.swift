internal import CCairo
internal import CFreeType

/// A font face as cairo draws it: a cairo-ft font face over an `FT_Face`, with the tables the
/// glyph selection needs, computed before cairo could use the face.
///
/// The cairo font face owns the `FT_Face` (and the bytes it reads): cairo frees it through the
/// face's user data when its last reference — this object's or a cached scaled font's — goes.
final class TextFace: @unchecked Sendable {
    /// The `cairo_font_face_t`.
    let cairoFace: OpaquePointer
    /// What was computed from the face when it was loaded.
    let tables: FaceTables

    private init(cairoFace: OpaquePointer, tables: FaceTables) {
        self.cairoFace = cairoFace
        self.tables = tables
    }

    deinit { cairo_font_face_destroy(cairoFace) }

    /// Opens `bytes` (any format FreeType reads) as an `FT_Face` not yet shared with anyone.
    static func open(bytes: [UInt8], index: Int = 0, renderer: FontRenderer) -> FaceOwner? {
        guard !bytes.isEmpty else { return nil }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 8)
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
        let face: FT_Face? = renderer.withLibrary { library in
            var face: FT_Face? = nil
            let error = FT_New_Memory_Face(
                library, buffer.baseAddress!.assumingMemoryBound(to: FT_Byte.self), FT_Long(bytes.count),
                FT_Long(index), &face)
            return error == 0 ? face : nil
        }
        guard let face else {
            buffer.deallocate()
            return nil
        }
        return FaceOwner(face: face, buffer: buffer, renderer: renderer)
    }

    /// Opens a font file as an `FT_Face` not yet shared with anyone.
    static func open(file path: String, index: Int = 0, renderer: FontRenderer) -> FaceOwner? {
        let face: FT_Face? = renderer.withLibrary { library in
            var face: FT_Face? = nil
            return FT_New_Face(library, path, FT_Long(index), &face) == 0 ? face : nil
        }
        guard let face else { return nil }
        return FaceOwner(face: face, buffer: nil, renderer: renderer)
    }

    /// Loads a font file with the tables asked for; nil when FreeType cannot read it.
    static func load(file path: String, index: Int, renderer: FontRenderer, tables contents: FaceTables.Contents)
        -> TextFace?
    {
        guard let owner = open(file: path, index: index, renderer: renderer) else { return nil }
        return TextFace(owner: owner, tables: FaceTables(owner.face, contents: contents))
    }

    /// Hands `owner`'s face to cairo; `tables` must have been computed before. Nil (and the face
    /// freed) when cairo refuses it.
    convenience init?(owner: FaceOwner, tables: FaceTables) {
        // Glyphs are drawn unhinted, from outlines (never embedded bitmaps), as MuPDF draws them.
        let loadFlags = Int32(truncatingIfNeeded: FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)
        guard let face = cairo_ft_font_face_create_for_ft_face(owner.face, loadFlags) else { return nil }
        let retained = Unmanaged.passRetained(owner).toOpaque()
        let status = cairo_font_face_set_user_data(face, faceOwnerKey, retained) { pointer in
            guard let pointer else { return }
            Unmanaged<FaceOwner>.fromOpaque(pointer).release()
        }
        guard status == CAIRO_STATUS_SUCCESS, cairo_font_face_status(face) == CAIRO_STATUS_SUCCESS else {
            if status != CAIRO_STATUS_SUCCESS { Unmanaged<FaceOwner>.fromOpaque(retained).release() }
            cairo_font_face_destroy(face)
            return nil
        }
        self.init(cairoFace: face, tables: tables)
    }
}

/// The user-data key under which a cairo font face holds its ``FaceOwner``.
nonisolated(unsafe) private let faceOwnerKey: UnsafeMutablePointer<cairo_user_data_key_t> = {
    let key = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1)
    key.initialize(to: cairo_user_data_key_t())
    return key
}()

/// An `FT_Face` and the bytes it reads, freed together (under the library lock, as FreeType
/// requires) when the last owner lets go.
final class FaceOwner {
    let face: FT_Face
    private let buffer: UnsafeMutableRawBufferPointer?
    private let renderer: FontRenderer

    init(face: FT_Face, buffer: UnsafeMutableRawBufferPointer?, renderer: FontRenderer) {
        self.face = face
        self.buffer = buffer
        self.renderer = renderer
    }

    deinit {
        let face = self.face
        _ = renderer.withLibrary { _ in FT_Done_Face(face) }
        buffer?.deallocate()
    }
}
