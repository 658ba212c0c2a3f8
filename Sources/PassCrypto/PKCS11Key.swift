internal import COpenSSL
public import Foundation
import Synchronization

/// A PKCS#11 module (an HSM's or SoftHSM's shared library) and the PIN its tokens are logged in with.
public struct PKCS11Module: Sendable {
    /// The module's path (`/usr/lib/softhsm/libsofthsm2.so`).
    public var path: String
    /// The user PIN; `nil` for a token that needs none. Never logged or printed.
    public var pin: String?

    /// Creates the module settings.
    public init(path: String, pin: String?) {
        self.path = path
        self.pin = pin
    }
}

extension PrivateKey {
    /// Whether `text` is a PKCS#11 URI (RFC 7512) rather than a key file's path.
    public static func isPKCS11URI(_ text: String) -> Bool {
        text.lowercased().hasPrefix("pkcs11:")
    }

    /// A PKCS#11 URI as messages may show it: its path part (before `?`), or, when it names a PIN anywhere
    /// (`pin-value`, `pin-source`, after any separator, percent-encoded or not), only that it is such a URI.
    public static func pkcs11Description(_ uri: String) -> String {
        let lowered = (uri.removingPercentEncoding ?? uri).lowercased()
        if lowered.contains("pin-value") || lowered.contains("pin-source") {
            return "the PKCS#11 URI (not repeated: it carries a PIN)"
        }
        return String(uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// A key that stays in a PKCS#11 module: every private operation (each signature) is done by the module through
    /// OpenSSL's `pkcs11` engine (libp11); the key's bytes are never read into the process.
    /// - Parameters:
    ///   - uri: An RFC 7512 URI naming the key, `pkcs11:token=<label>;object=<label>` (or `id=`); a PIN in it
    ///     (`pin-value`, `pin-source`) is refused: the PIN comes from ``PKCS11Module/pin``.
    ///   - module: The module and PIN.
    /// - Throws: ``CryptoError`` naming the URI (never the PIN): the engine or module missing, the PIN refused, no
    ///   such token or key.
    public static func pkcs11(uri: String, module: PKCS11Module) throws -> PrivateKey {
        try PKCS11URI.check(uri)
        let engine = try PKCS11Engines.shared.engine(modulePath: module.path)
        return try PKCS11Engines.shared.withLock {
            OpenSSL.clearErrors()
            if let pin = module.pin, tessera_pkcs11_set_pin(engine.pointer, pin) != 1 {
                throw CryptoError.openSSL(.invalidKey, "\(uri): the PKCS#11 engine did not take the PIN")
            }
            guard let key = tessera_pkcs11_load_private_key(engine.pointer, uri) else {
                let errors = OpenSSL.drainErrors()
                let text = errors.joined(separator: " ").lowercased()
                if text.contains("pin incorrect") || text.contains("pin_incorrect") {
                    throw CryptoError(.wrongPassword, "\(uri): the module refused the PIN (the PKCS#11 PIN file or variable)")
                }
                if text.contains("pin locked") || text.contains("pin_locked") {
                    throw CryptoError(.invalidKey, "\(uri): the token is locked (too many wrong PINs): unlock it with its SO PIN", openSSLErrors: errors)
                }
                if text.contains("ui_process") || text.contains("reading strings") || module.pin == nil {
                    throw CryptoError(.passwordRequired, "\(uri): the token needs a PIN: give the PKCS#11 PIN file or variable")
                }
                throw CryptoError(
                    .invalidKey, "\(uri): no private key matches it in \(module.path) (no such token, or no such object on it)",
                    openSSLErrors: errors)
            }
            return PrivateKey(taking: key)
        }
    }
}

/// The checks made on a PKCS#11 URI before the module is asked.
enum PKCS11URI {
    static func check(_ uri: String) throws {
        let body = uri.dropFirst("pkcs11:".count)
        let path = body.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        let attributes = path.split(separator: ";").map { $0.split(separator: "=", maxSplits: 1).first.map(String.init) ?? "" }
        // Modules' URI readers take a PIN after any of ; ? and & (and some in any letter case, or percent-encoded):
        // whatever the separator, a URI that names one is refused, and its text (which holds the PIN) not repeated.
        let lowered = (uri.removingPercentEncoding ?? uri).lowercased()
        if lowered.contains("pin-value") || lowered.contains("pin-source") {
            throw CryptoError(.invalidKey, "the PKCS#11 URI carries a PIN: take it out and give the PIN file or variable instead")
        }
        guard attributes.contains("object") || attributes.contains("id") else {
            throw CryptoError(.invalidKey, "\(uri): name the key with object=<label> or id=<hex> (RFC 7512)")
        }
    }
}

/// One initialised `pkcs11` engine per module for the life of the process (a module is initialised once per
/// process; the engine keeps its sessions), and a lock around setting the PIN and loading a key.
final class PKCS11Engines: Sendable {
    static let shared = PKCS11Engines()

    final class Engine: @unchecked Sendable {
        let pointer: OpaquePointer
        init(_ pointer: OpaquePointer) { self.pointer = pointer }
    }

    private let engines = Mutex([String: Engine]())
    private let loading = Mutex(())

    func engine(modulePath: String) throws -> Engine {
        try engines.withLock { engines in
            if let engine = engines[modulePath] { return engine }
            guard FileManager.default.isReadableFile(atPath: modulePath) else {
                throw CryptoError(.invalidKey, "\(modulePath): the PKCS#11 module is not there or not readable")
            }
            _ = OpenSSL.legacyProvidersLoaded
            OpenSSL.clearErrors()
            guard let pointer = tessera_pkcs11_engine(modulePath) else {
                throw CryptoError.openSSL(
                    .invalidKey,
                    "\(modulePath): OpenSSL's pkcs11 engine could not load it (is libengine-pkcs11-openssl installed, and is this a PKCS#11 module?)")
            }
            let engine = Engine(pointer)
            engines[modulePath] = engine
            return engine
        }
    }

    func withLock<T>(_ body: () throws -> T) throws -> T {
        try loading.withLock { _ in try body() }
    }
}
