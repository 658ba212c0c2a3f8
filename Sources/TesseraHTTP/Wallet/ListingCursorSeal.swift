import Crypto
import Foundation
import PassWebService

/// The listing cursors an API key is given, sealed (ChaCha20-Poly1305 under a key derived from the admin token, which
/// every server process of one deployment shares): a listing's `nextCursor` may stand for any stored item where a page
/// ended, another brand's included, and a plain cursor would show that item's identifiers; and a cursor the caller
/// made up is refused instead of placing a search anywhere in the table. The admin token's cursors stay plain.
struct ListingCursorSeal: Sendable {
    private let key: SymmetricKey

    /// Derives the sealing key from the admin token.
    init(adminToken: String) {
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(adminToken.utf8)), info: Data("tessera listing cursor v1".utf8),
            outputByteCount: 32)
    }

    /// A plain cursor sealed: base64url of the nonce, the ciphertext and the tag.
    func seal(_ cursor: String) -> String {
        // Sealing fails only for a key of the wrong size, which the derivation above never makes.
        let box = try! ChaChaPoly.seal(Data(cursor.utf8), using: key)  // swiftlint:disable:this force_try
        return ItemListRequest.base64URL(box.combined)
    }

    /// The plain cursor a sealed one stands for; `nil` for anything this server did not seal.
    func open(_ sealed: String) -> String? {
        guard let data = ItemListRequest.bytes(base64URL: sealed, maximumLength: 1_024),
              let box = try? ChaChaPoly.SealedBox(combined: data),
              let plain = try? ChaChaPoly.open(box, using: key)
        else { return nil }
        return String(data: plain, encoding: .utf8)
    }

    /// A list request's query parameters with a key's sealed `cursor` opened (the admin token's are left as they are).
    /// - Throws: 400 naming `cursor` when a key's cursor is not one this server sealed.
    func opening(_ parameters: [(name: String, value: String)], for principal: IssuerPrincipal) throws
        -> [(name: String, value: String)]
    {
        guard !principal.isAdmin else { return parameters }
        return try parameters.map { parameter in
            guard parameter.name == "cursor" else { return parameter }
            guard let plain = open(parameter.value) else {
                throw IssuerError.badQuery("cursor", "not a cursor this API gave (use nextCursor as it is)")
            }
            return (parameter.name, plain)
        }
    }

    /// A page's `nextCursor` as the caller is given it.
    func cursor(_ plain: String?, for principal: IssuerPrincipal) -> String? {
        guard let plain, !principal.isAdmin else { return plain }
        return seal(plain)
    }
}
