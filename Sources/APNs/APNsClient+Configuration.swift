public import Foundation

extension APNsClient {
    /// How the client reaches APNs and proves who it is.
    public struct Configuration: Sendable {
        /// How the provider authenticates to APNs.
        public enum Authentication: Sendable {
            /// TLS client certificate authentication with the Pass Type ID certificate.
            /// - `certificatePEMPath`: the certificate and, optionally, its intermediates, in any order, as PEM (or the
            ///   certificate alone as DER).
            /// - `keyPEMPath`: its private key as PEM, PKCS#8 or traditional (or DER, unencrypted).
            /// - `keyPassword`: the key's password when it is encrypted; read it from a file or the environment.
            case certificate(certificatePEMPath: String, keyPEMPath: String, keyPassword: String?)
            /// Token authentication: an ES256 JWT signed with a `.p8` key (PKCS#8 PEM, P-256).
            /// - `p8Path`: the `.p8` file downloaded from the developer account.
            /// - `keyID`: its 10-character key identifier (the JWT's `kid`).
            /// - `teamID`: the team identifier (the JWT's `iss`).
            case token(p8Path: String, keyID: String, teamID: String)
        }

        /// Which certificate authorities the client trusts for the APNs server.
        public enum TrustRoots: Sendable, Equatable {
            /// The system's trust store.
            case system
            /// The system's trust store plus the certificates in a PEM file (e.g. a test stand-in's CA).
            case systemPlus(pemPath: String)
            /// Only the certificates in a PEM file.
            case only(pemPath: String)
        }

        /// Apple's production APNs host.
        public static let productionHost = "api.push.apple.com"
        /// Apple's sandbox (development) APNs host.
        public static let sandboxHost = "api.sandbox.push.apple.com"

        /// The APNs host name; ``productionHost`` or ``sandboxHost``, or a stand-in's in tests.
        public var host: String
        /// The port: 443, or 2197 where 443 is blocked.
        public var port: Int
        /// How the provider authenticates.
        public var authentication: Authentication
        /// Which certificate authorities are trusted for the server.
        public var trustRoots: TrustRoots
        /// Connection timeout.
        public var connectTimeout: TimeInterval
        /// Timeout of one request, from sending to the complete answer.
        public var requestTimeout: TimeInterval
        /// How long APNs keeps a notification for an offline device when `send` gets no explicit expiration;
        /// sent as `apns-expiration` = now + this interval. `0` asks APNs not to store the notification.
        public var expirationInterval: TimeInterval
        /// `apns-priority`; `nil` sends no header and APNs applies its default. Wallet documents no value.
        public var priority: Int?
        /// `apns-push-type`; `nil` sends no header. Wallet documents no push type for pass updates.
        public var pushType: String?
        /// Age after which a cached provider token (JWT) is replaced. APNs refuses tokens refreshed more often
        /// than every 20 minutes and tokens older than 60 minutes, so the value is kept within 20...50 minutes.
        public var tokenRefreshInterval: TimeInterval
        /// How many HTTP/2 connections the client may keep to the host. Apple recommends several for large volumes:
        /// a connection carries as many pushes at once as APNs allows it streams, and each waits a round trip for its
        /// answer. Pushes go to the connection with the fewest unanswered; the others open only when pushes are
        /// waiting on the first. Kept within 1...``maximumConnections``.
        public var connections: Int

        /// The most connections a client keeps to one host.
        public static let maximumConnections = 32

        /// Creates a configuration.
        /// - Parameters:
        ///   - host: The APNs host; defaults to ``productionHost``.
        ///   - port: The port; defaults to 443.
        ///   - authentication: Certificate or token authentication.
        ///   - trustRoots: Trusted certificate authorities; defaults to the system's.
        ///   - connectTimeout: Connection timeout; defaults to 10 seconds.
        ///   - requestTimeout: Timeout of one request; defaults to 30 seconds.
        ///   - expirationInterval: Default notification lifetime; defaults to 24 hours.
        ///   - priority: `apns-priority`, or `nil` for APNs's default.
        ///   - pushType: `apns-push-type`, or `nil` to send none.
        ///   - tokenRefreshInterval: JWT refresh age; defaults to 30 minutes, kept within 20...50 minutes.
        ///   - connections: HTTP/2 connections to the host; defaults to 1.
        public init(
            host: String = Configuration.productionHost,
            port: Int = 443,
            authentication: Authentication,
            trustRoots: TrustRoots = .system,
            connectTimeout: TimeInterval = 10,
            requestTimeout: TimeInterval = 30,
            expirationInterval: TimeInterval = 24 * 3600,
            priority: Int? = nil,
            pushType: String? = nil,
            tokenRefreshInterval: TimeInterval = 30 * 60,
            connections: Int = 1
        ) {
            self.host = host
            self.port = port
            self.authentication = authentication
            self.trustRoots = trustRoots
            self.connectTimeout = connectTimeout
            self.requestTimeout = requestTimeout
            self.expirationInterval = expirationInterval
            self.priority = priority
            self.pushType = pushType
            self.tokenRefreshInterval = tokenRefreshInterval
            self.connections = connections
        }

        /// The connections actually kept: ``connections`` within 1...``maximumConnections``.
        public var effectiveConnections: Int {
            min(max(connections, 1), Self.maximumConnections)
        }

        /// The refresh age actually used: ``tokenRefreshInterval`` clamped to 20...50 minutes.
        public var effectiveTokenRefreshInterval: TimeInterval {
            min(max(tokenRefreshInterval, 20 * 60), 50 * 60)
        }

        /// The base URL of the provider API, e.g. `https://api.push.apple.com:443`.
        public var baseURL: String { "https://\(host):\(port)" }
    }
}
