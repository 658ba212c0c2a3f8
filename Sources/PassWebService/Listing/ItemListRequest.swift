public import Foundation
public import PassStore

/// A search of the issuer's passes or orders (`GET /api/v1/passes?...`, `GET /api/v1/orders?...`), read from its
/// query parameters; every malformed or unknown one is refused naming it.
public struct ItemListRequest: Sendable, Equatable {
    /// The largest page.
    public static let maximumLimit = 1_000
    /// The page size when none is asked.
    public static let defaultLimit = 100

    /// The store's filters and position.
    public var query: PassListQuery
    /// `field.<key>=<value>`: the pass's current value of each field (its data's, else its template's) equals the
    /// value, as text or as a number.
    public var fields: [Field]
    /// The page size.
    public var limit: Int
    /// The identifiers the caller sees (an API key's scope); `nil` for all. Items of others are passed over as if
    /// they were not stored.
    public var visibleScope: IssuerScope?

    /// Shows the caller only what its scope names.
    public mutating func restrict(to principal: IssuerPrincipal) {
        if case .key(_, _, let scope) = principal { visibleScope = scope }
    }

    public struct Field: Sendable, Equatable {
        public var key: String
        public var value: String
    }

    /// Reads the query parameters of a list request.
    /// - Parameters:
    ///   - parameters: Name and value of each, in order (a name may not repeat).
    ///   - kind: Passes or orders: orders take `orderTypeIdentifier` and have no `voided`, `redeemed` or `field.*`.
    /// - Throws: ``IssuerError`` 400 naming the parameter.
    public init(parameters: [(name: String, value: String)], kind: WalletItemKind) throws {
        query = PassListQuery(limit: Self.defaultLimit)
        fields = []
        limit = Self.defaultLimit
        let typeName = kind == .pass ? "passTypeIdentifier" : "orderTypeIdentifier"
        var seen: Set<String> = []
        for (name, value) in parameters {
            guard seen.insert(name).inserted else { throw IssuerError.badQuery(Self.printable(name), "given twice") }
            switch name {
            case "template":
                guard TemplateLibrary.isValidName(value) else { throw IssuerError.badQuery(name, "not a template name") }
                query.template = value
            case typeName:
                let valid = kind == .pass
                    ? PathSegments.isValidPassTypeIdentifier(value) : PathSegments.isValidOrderTypeIdentifier(value)
                guard valid else {
                    throw IssuerError.badQuery(name, "not \(kind == .pass ? "a pass" : "an order") type identifier")
                }
                query.typeIdentifier = value
            case "voided" where kind == .pass:
                query.voided = try Self.flag(value, name)
            case "redeemed" where kind == .pass:
                query.redeemed = try Self.flag(value, name)
            case "updatedSince":
                guard let date = RFC3339.queryDate(value) else {
                    throw IssuerError.badQuery(name, "not an RFC 3339 date-time with a time zone (2026-12-31T23:00:00Z)")
                }
                query.updatedSince = date
            case "limit":
                guard let number = Int(value), (1...Self.maximumLimit).contains(number) else {
                    throw IssuerError.badQuery(name, "a whole number from 1 to \(Self.maximumLimit)")
                }
                limit = number
            case "cursor":
                guard let key = Self.key(cursor: value) else {
                    throw IssuerError.badQuery(name, "not a cursor this API gave (use nextCursor as it is)")
                }
                query.after = key
            case _ where name.hasPrefix("field.") && kind == .pass:
                let key = String(name.dropFirst("field.".count))
                guard !key.isEmpty, key.count <= 100, !Self.hasControlCharacters(key) else {
                    throw IssuerError.badQuery(Self.printable(name), "field.<key>: a field key of 1-100 characters")
                }
                guard value.count <= 1_000, !Self.hasControlCharacters(value) else {
                    throw IssuerError.badQuery(name, "at most 1000 characters without control characters")
                }
                fields.append(Field(key: key, value: value))
            default:
                let known = kind == .pass
                    ? "template, passTypeIdentifier, voided, redeemed, field.<key>, updatedSince, limit, cursor"
                    : "template, orderTypeIdentifier, updatedSince, limit, cursor"
                throw IssuerError.badQuery(Self.printable(name), "unknown parameter (known: \(known))")
            }
        }
        query.limit = limit
    }

    /// The cursor that resumes after an item: its key, base64url-encoded.
    public static func cursor(after key: PassListKey) -> String {
        base64URL(Data((key.typeIdentifier + "\u{0}" + key.identifier).utf8))
    }

    /// Bytes as base64url without padding, as cursors are written.
    package static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of a cursor's base64url text of at most `maximumLength` characters; `nil` for anything else.
    package static func bytes(base64URL cursor: String, maximumLength: Int) -> Data? {
        guard !cursor.isEmpty, cursor.utf8.count <= maximumLength,
              cursor.utf8.allSatisfy({ $0.isLetterOrDigitASCII || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
        else { return nil }
        var text = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        return Data(base64Encoded: text)
    }

    static func key(cursor: String) -> PassListKey? {
        guard let data = bytes(base64URL: cursor, maximumLength: 400), let decoded = String(data: data, encoding: .utf8)
        else { return nil }
        let parts = decoded.split(separator: "\u{0}", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        return PassListKey(typeIdentifier: String(parts[0]), identifier: String(parts[1]))
    }

    private static func flag(_ value: String, _ name: String) throws -> Bool {
        switch value {
        case "true": return true
        case "false": return false
        default: throw IssuerError.badQuery(name, "true or false")
        }
    }

    private static func hasControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    private static func printable(_ name: String) -> String {
        LogRedactor.escapeControlCharacters(String(name.prefix(100)))
    }
}
