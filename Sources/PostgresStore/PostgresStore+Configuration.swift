import Foundation
import PassStore

extension PostgresStore {
    /// Where the database is and how to reach it.
    public struct Configuration: Sendable, Equatable {
        /// Whether connections use TLS (libpq's `sslmode`).
        public enum TLSMode: Sendable, Equatable {
            /// Plain TCP (`sslmode=disable`).
            case disable
            /// TLS when the server offers it, certificate not verified (`sslmode=prefer`, `allow`).
            case prefer
            /// TLS or no connection, certificate not verified (`sslmode=require`, as libpq means it).
            case require
            /// TLS with a certificate signed by a trusted authority, host name not checked (`sslmode=verify-ca`).
            case verifyCA
            /// TLS with a trusted certificate for the host name (`sslmode=verify-full`).
            case verifyFull
        }

        /// The server's host name or address.
        public var host: String
        /// The server's TCP port.
        public var port: Int
        /// The role to connect as.
        public var username: String
        /// The role's password, if the server asks for one.
        public var password: String?
        /// The database, or `nil` for the server's default (the role's name).
        public var database: String?
        /// Whether connections use TLS.
        public var tls: TLSMode
        /// The schema holding the store's tables (the connections' `search_path`), or `nil` for the default.
        public var schema: String?
        /// The most connections the pool opens.
        public var maximumConnections: Int

        /// Creates a configuration.
        /// - Parameters:
        ///   - host: The server's host name or address.
        ///   - port: The server's TCP port.
        ///   - username: The role to connect as.
        ///   - password: The role's password.
        ///   - database: The database.
        ///   - tls: Whether connections use TLS.
        ///   - schema: The schema holding the store's tables (created by ``PostgresStore/migrate()`` when missing).
        ///   - maximumConnections: The most connections the pool opens.
        public init(
            host: String = "127.0.0.1", port: Int = 5432, username: String = "postgres", password: String? = nil,
            database: String? = nil, tls: TLSMode = .disable, schema: String? = nil, maximumConnections: Int = 20
        ) {
            self.host = host
            self.port = port
            self.username = username
            self.password = password
            self.database = database
            self.tls = tls
            self.schema = schema
            self.maximumConnections = maximumConnections
        }

        /// Reads a `postgres://user:password@host:port/database?sslmode=require` URL (`postgresql://` too).
        ///
        /// Query items: `sslmode` (`disable`, the default; `allow`, `prefer`, `require`, `verify-ca`, `verify-full`),
        /// `schema` (the tables' schema) and `max_connections`. User and password may be percent-encoded.
        /// - Parameter url: The URL.
        /// - Throws: ``PassStore/PassStoreError/invalidData(_:)`` when the URL is not a PostgreSQL URL.
        public init(url: String) throws {
            guard let components = URLComponents(string: url),
                components.scheme == "postgres" || components.scheme == "postgresql"
            else {
                throw PassStoreError.invalidData("not a postgres:// URL: \(url)")
            }
            self.init()
            if let host = components.host, !host.isEmpty { self.host = host }
            if let port = components.port { self.port = port }
            if let user = components.percentEncodedUser { username = user.removingPercentEncoding ?? user }
            password = components.percentEncodedPassword.map { $0.removingPercentEncoding ?? $0 }
            let path = components.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            database = path.isEmpty ? nil : path
            for item in components.queryItems ?? [] {
                let value = item.value ?? ""
                switch item.name {
                case "sslmode":
                    switch value {
                    case "disable": tls = .disable
                    case "allow", "prefer": tls = .prefer
                    case "require": tls = .require
                    case "verify-ca": tls = .verifyCA
                    case "verify-full": tls = .verifyFull
                    default: throw PassStoreError.invalidData("unknown sslmode \(value) in the database URL")
                    }
                case "schema":
                    schema = value.isEmpty ? nil : value
                case "max_connections":
                    guard let count = Int(value), count > 0 else {
                        throw PassStoreError.invalidData("max_connections must be a positive number, not \(value)")
                    }
                    maximumConnections = count
                default:
                    continue
                }
            }
        }
    }
}
