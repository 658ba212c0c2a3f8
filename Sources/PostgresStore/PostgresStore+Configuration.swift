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
        /// The folder holding the server's Unix-domain socket (libpq's `host=/path`), or `nil` for TCP to ``host``.
        /// The socket is `<folder>/.s.PGSQL.<port>`; a server on the same machine answers through it without the
        /// loopback TCP stack.
        public var socketDirectory: String?

        /// The path of the Unix-domain socket, when ``socketDirectory`` is set.
        public var socketPath: String? {
            socketDirectory.map { directory in
                (directory.hasSuffix("/") ? String(directory.dropLast()) : directory) + "/.s.PGSQL.\(port)"
            }
        }

        /// The pool size when none is given: two connections per CPU core of this machine, plus four, at most 32.
        ///
        /// A request holds a connection only while its statement runs (tens of microseconds for a device request), so
        /// a handful per core keeps requests from queueing for one; each waiting request costs the server CPU time of
        /// its own (measured in docs/benchmarks.md), while idle connections cost the database server only memory. The
        /// cap keeps three processes within PostgreSQL's default `max_connections` (100).
        public static var defaultMaximumConnections: Int {
            min(32, 2 * ProcessInfo.processInfo.activeProcessorCount + 4)
        }

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
            database: String? = nil, tls: TLSMode = .disable, schema: String? = nil,
            maximumConnections: Int = Configuration.defaultMaximumConnections
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
        /// Query items: `host` (a folder: connect through the server's Unix-domain socket in it, as libpq does),
        /// `sslmode` (`disable`, the default; `allow`, `prefer`, `require`, `verify-ca`, `verify-full`),
        /// `schema` (the tables' schema) and `max_connections`. User and password may be percent-encoded.
        /// - Parameter url: The URL.
        /// - Throws: ``PassStore/PassStoreError/invalidData(_:)`` when the URL is not a PostgreSQL URL.
        public init(url: String) throws {
            guard let components = URLComponents(string: url),
                components.scheme == "postgres" || components.scheme == "postgresql"
            else {
                // Never the URL itself: it holds the password.
                throw PassStoreError.invalidData("not a postgres:// URL that parses (characters such as %, # or @ in the "
                    + "user or password must be percent-encoded: %25, %23, %40)")
            }
            self.init()
            if let host = components.percentEncodedHost?.removingPercentEncoding, !host.isEmpty {
                // libpq reads a host that is a path (percent-encoded in the URL) as the socket's folder.
                if host.hasPrefix("/") { socketDirectory = host } else { self.host = host }
            }
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
                case "host":
                    // libpq's `?host=/var/run/postgresql`: a folder means the Unix-domain socket in it.
                    guard value.hasPrefix("/") else {
                        throw PassStoreError.invalidData("host=\(value) in the database URL: only a socket folder (an absolute path) goes here; put a host name before the port")
                    }
                    socketDirectory = value
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
