public import Foundation
import HTTPTypes
public import Logging
import PassBundle
public import PassStore

/// Several passes as one `.pkpasses` download (`application/vnd.apple.pkpasses`), within Apple's limits.
extension PassIssuer {
    /// The media type of a `.pkpasses` download.
    public static let passesBundleMediaType = PassesBundle.mediaType

    /// The largest `.pkpasses` download this issuer makes: the configured size, never above Apple's 150 MB.
    public var passesBundleMaximumSize: Int {
        min(configuration.passesBundleMaximumSize, PassesBundle.maximumSize)
    }

    /// Refuses a request for `count` passes in one bundle when Wallet would not take them, before anything is signed.
    /// - Parameter count: How many passes were asked for.
    /// - Throws: ``IssuerError`` 422 naming Apple's limit: no passes, or more than 10.
    public func checkPassesBundleCount(_ count: Int) throws {
        if count == 0 {
            throw IssuerError.passesBundleLimit("passes: a .pkpasses bundle needs at least one pass")
        }
        if count > PassesBundle.maximumPassCount {
            throw IssuerError.passesBundleLimit("""
                passes: Wallet takes at most \(PassesBundle.maximumPassCount) passes from one .pkpasses bundle; \
                \(count) were asked for (download them in parts, or one by one)
                """)
        }
    }

    /// Signs (or takes from the cache) each pass's current version and puts them in one `.pkpasses` archive, in
    /// order. Entries are named `<serialNumber>.pkpass`, or `<passTypeIdentifier>-<serialNumber>.pkpass` when two
    /// passes share a serial number.
    /// - Parameters:
    ///   - passes: The passes, 1 to 10, each at most once.
    ///   - logger: Where a pass that cannot be built is reported.
    /// - Returns: The archive's bytes.
    /// - Throws: ``IssuerError``: 422 for Apple's limits (count, or a total above ``passesBundleMaximumSize``) or a
    ///   pass named twice; 500 when a stored pass cannot be built (logged; the server's fault).
    public func passesBundle(for passes: [PassRecord], logger: Logger) async throws -> Data {
        try checkPassesBundleCount(passes.count)
        var seen: [String: Int] = [:]
        for (index, pass) in passes.enumerated() {
            let key = "\(pass.passTypeIdentifier)/\(pass.serialNumber)"
            if let first = seen[key] {
                throw IssuerError(status: .unprocessableContent,
                                  description: "passes[\(index)]: names the same pass as passes[\(first)]")
            }
            seen[key] = index
        }
        let serialCounts = Dictionary(passes.map { ($0.serialNumber, 1) }, uniquingKeysWith: +)
        var entries: [(name: String, data: Data)] = []
        var total = 0
        for pass in passes {
            let data: Data
            do {
                data = try await bundle(for: pass)
            } catch {
                logger.error("a stored pass could not be built for a .pkpasses bundle", metadata: [
                    "passTypeIdentifier": .string(pass.passTypeIdentifier), "template": .string(pass.template),
                    "updateTag": .stringConvertible(pass.updateTag), "error": .string("\(error)"),
                ])
                throw IssuerError(status: .internalServerError,
                                  description: "the pass \(pass.serialNumber) could not be built")
            }
            total += data.count
            let name = serialCounts[pass.serialNumber, default: 0] > 1
                ? "\(pass.passTypeIdentifier)-\(pass.serialNumber)" : pass.serialNumber
            entries.append((name + ".pkpass", data))
        }
        if total > passesBundleMaximumSize {
            throw IssuerError.passesBundleLimit("""
                passes: the \(passes.count) signed passes are \(total) bytes; a .pkpasses bundle may be at most \
                \(passesBundleMaximumSize) bytes (Wallet takes at most 150 MB): download them in parts
                """)
        }
        do {
            return try PassesBundle(passes: entries).archive()
        } catch {
            logger.error("a .pkpasses bundle could not be made", metadata: ["error": .string("\(error)")])
            throw IssuerError(status: .internalServerError, description: "the .pkpasses bundle could not be made")
        }
    }
}
