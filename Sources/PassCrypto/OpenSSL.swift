internal import COpenSSL
import Foundation

/// Process-wide OpenSSL helpers: the error queue, memory BIOs and provider loading.
enum OpenSSL {
    /// Empties this thread's OpenSSL error queue and returns its entries as readable strings.
    static func drainErrors() -> [String] {
        var messages: [String] = []
        while true {
            var data: UnsafePointer<CChar>?
            var flags: Int32 = 0
            let code = ERR_get_error_all(nil, nil, nil, &data, &flags)
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            var text = Self.shorten(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            if let data, flags & ERR_TXT_STRING != 0, data.pointee != 0 {
                text += ": " + String(cString: data)
            }
            messages.append(text)
        }
        return messages
    }

    /// Turns "error:1C800064:Provider routines::bad decrypt" into "bad decrypt (Provider routines)".
    private static func shorten(_ text: String) -> String {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 5 else { return text }
        let reason = parts[4...].joined(separator: ":")
        let library = parts[2]
        return library.isEmpty ? reason : "\(reason) (\(library))"
    }

    /// Clears any stale errors left by an earlier call on this thread.
    static func clearErrors() { ERR_clear_error() }

    /// Loads the default and legacy providers once, so PKCS#12 files exported by macOS (RC2-40, 3DES) open.
    static let legacyProvidersLoaded: Bool = {
        let defaultProvider = OSSL_PROVIDER_load(nil, "default")
        let legacy = OSSL_PROVIDER_load(nil, "legacy")
        _ = defaultProvider
        ERR_clear_error()
        return legacy != nil
    }()

    /// Calls `body` with a read-only memory BIO over `data`.
    static func withReadBIO<T>(_ data: Data, _ body: (OpaquePointer) throws -> T) throws -> T {
        try data.withUnsafeBytes { raw -> T in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else {
                throw CryptoError.openSSL(.internalFailure, "could not allocate a memory buffer")
            }
            defer { BIO_free(bio) }
            return try body(bio)
        }
    }

    /// Calls `body` with a writable memory BIO and returns what it wrote.
    static func writeBIO(_ body: (OpaquePointer) throws -> Bool, failure: @autoclosure () -> CryptoError) throws -> Data {
        guard let bio = BIO_new(BIO_s_mem()) else {
            throw CryptoError.openSSL(.internalFailure, "could not allocate a memory buffer")
        }
        defer { BIO_free(bio) }
        guard try body(bio) else { throw failure() }
        var pointer: UnsafeMutablePointer<CChar>?
        let length = tessera_BIO_get_mem_data(bio, &pointer)
        guard let pointer, length > 0 else { return Data() }
        return Data(bytes: pointer, count: length)
    }

    /// Converts an ASN1_TIME to a Date.
    static func date(from time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time else { return nil }
        var value = tm()
        guard ASN1_TIME_to_tm(time, &value) == 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&value)))
    }
}
