import Foundation
import PDFTestSupport
import Testing

@testable import PDFSession

/// Python's `cryptography` (HKDF, AESGCM), `hmac` and `sqlite3` modules read the store file as
/// specified — salt from `meta`, keys by HKDF-SHA-256, owner as hex, document and kind tags by
/// HMAC-SHA-256, format 2 records (AAD `"autograph store v2"‖0‖owner‖0‖document tag‖0‖kind tag‖0‖index`,
/// plaintext `id length‖id‖value`), the store-wide check in format 1 — and must recover exactly what
/// was stored, ids included, from a database that holds none of them in clear.
@Suite("Store format against Python cryptography") struct StoreOracleTests {
    static let script = #"""
        import hashlib, hmac, sqlite3, sys
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.kdf.hkdf import HKDF
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM
        db, user, keyhex = sys.argv[1:4]
        con = sqlite3.connect(db)
        salt = con.execute("SELECT value FROM meta WHERE name='salt'").fetchone()[0]
        def hkdf(info, n):
            return HKDF(algorithm=hashes.SHA256(), length=n, salt=salt, info=info).derive(bytes.fromhex(keyhex))
        check = con.execute("SELECT value FROM meta WHERE name='key check'").fetchone()[0]
        assert check[0] == 1
        plain = AESGCM(hkdf(b"autograph store v1 store check", 32)).decrypt(check[1:13], check[13:], b"\0\0check\0" + b"0")
        print("store-check", plain.hex())
        key = hkdf(b"autograph store v1 records\0" + user.encode(), 32)
        owner = hkdf(b"autograph store v1 owner\0" + user.encode(), 16).hex()
        rowkey = hkdf(b"autograph store v2 row keys\0" + user.encode(), 32)
        def tag(domain, text):
            return hmac.new(rowkey, domain + b"\0" + text.encode(), hashlib.sha256).hexdigest()
        kinds = {tag(b"kind", k): k for k in ["original", "revision", "state", "signature", "check", "setting"]}
        rows = con.execute("SELECT document, kind, idx, value FROM records WHERE owner=? ORDER BY document, kind, idx", (owner,))
        for doc, kind, idx, value in rows:
            assert value[0] == 2 and len(value) >= 33
            aad = b"autograph store v2\0" + b"\0".join([owner.encode(), doc.encode(), kind.encode(), str(idx).encode()])
            plain = AESGCM(key).decrypt(value[1:13], value[13:], aad)
            n = int.from_bytes(plain[:4], "little")
            id = plain[4:4 + n].decode()
            assert tag(b"document", id) == doc, (id, doc)
            print(id, kinds[kind], idx, plain[4 + n:].hex())
        """#

    @Test(
        "an independent implementation decrypts every record of the user",
        .enabled(if: Requirement.python("cryptography"), "python3 with its cryptography module is not installed"))
    func pythonDecrypts() throws {
        let path = try StoreFixtures.databasePath()
        let original = Array("%PDF-1.7 oracle original".utf8)
        let update = StoreFixtures.document(count: 70_000, seed: 9)
        do {
            let store = try SecureStore(username: "zoé", storageKey: StoreFixtures.key(3), path: path)
            try store.create(documentID: "doc-1", original: original, state: Array("S0".utf8))
            try store.append(documentID: "doc-1", revision: update, state: Array("S1".utf8))
            _ = try store.addSignature([0xAA, 0xBB])
        }
        let result = try Oracle.run(
            "python3", ["-c", Self.script, path, "zoé", StoreFixtures.hex(StoreFixtures.key(3))])
        #expect(result.status == 0, "\(result.errors)")
        var rows: [String: String] = [:]
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            rows[parts.dropLast().joined(separator: " ")] = parts.last
        }
        #expect(rows.count == 6)  // store check, key check, signature, original, revision, state
        #expect(rows["store-check"] == StoreFixtures.hex(SecureStore.checkText))
        #expect(rows[" check 0"] == StoreFixtures.hex(SecureStore.checkText))
        #expect(rows[" signature 1"] == "aabb")
        #expect(rows["doc-1 original 0"] == StoreFixtures.hex(original))
        #expect(rows["doc-1 revision 0"] == StoreFixtures.hex(update))
        // the state record: manifest (format 1, one revision, two tags) then the session's bytes
        let state = StoreFixtures.bytes(hex: rows["doc-1 state 0"] ?? "")
        #expect(state.count == 5 + 32 + 2)
        #expect(Array(state.prefix(5)) == [1, 1, 0, 0, 0])
        #expect(Array(state.suffix(2)) == Array("S1".utf8))
    }
}
