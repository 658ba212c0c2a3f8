public import Foundation

/// What an issuer API credential may do.
public enum IssuerPermission: String, Sendable, CaseIterable, Codable {
    /// Every `GET`.
    case read
    /// Create, change and void passes and orders, download bundles, campaigns.
    case write
    /// Redemptions at the gate only.
    case redeem
}

/// The pass and order type identifiers a key covers and what it may do with them.
public struct IssuerScope: Sendable, Equatable {
    /// Exact identifiers, or prefixes ending in `*` (`pass.com.brand-a.*`).
    public var identifiers: [String]
    /// The permissions.
    public var permissions: Set<IssuerPermission>

    /// Creates a scope.
    public init(identifiers: [String], permissions: Set<IssuerPermission>) {
        self.identifiers = identifiers
        self.permissions = permissions
    }

    /// Whether `identifier` (a pass or order type identifier) is one the scope names.
    public func covers(_ identifier: String) -> Bool {
        identifiers.contains { pattern in
            pattern.hasSuffix("*") ? identifier.hasPrefix(pattern.dropLast()) : identifier == pattern
        }
    }
}

/// Who is calling the issuer API: the operator (the admin token) or a brand's key.
public enum IssuerPrincipal: Sendable, Equatable {
    /// The admin token: everything, and the keys themselves.
    case admin
    /// An API key: only what its scope names.
    case key(id: String, name: String, scope: IssuerScope)

    /// Whether this caller sees items of `identifier`; everything else answers exactly as if it did not exist.
    public func covers(_ identifier: String) -> Bool {
        switch self {
        case .admin: true
        case .key(_, _, let scope): scope.covers(identifier)
        }
    }

    /// Whether this caller may do `permission`.
    public func allows(_ permission: IssuerPermission) -> Bool {
        switch self {
        case .admin: true
        case .key(_, _, let scope): scope.permissions.contains(permission)
        }
    }

    /// Whether this is the admin token.
    public var isAdmin: Bool { self == .admin }

    /// The API key's id; `nil` for the admin token.
    public var keyID: String? {
        if case .key(let id, _, _) = self { id } else { nil }
    }

    /// Of `identifiers`, those this caller sees, in order.
    public func visible(_ identifiers: [String]) -> [String] {
        identifiers.filter(covers)
    }
}
