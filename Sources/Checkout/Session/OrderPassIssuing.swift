public import Foundation
public import Logging
public import PassModel

/// What checkout needs from a pass issuer: an order's passes issued, and bundled for one download. The composition
/// root wires the pass web service's issuer in (`TesseraServer`'s `OrderPassIssuer`); checkout knows no more of it.
public protocol OrderPassIssuing: Sendable {
    /// Issues the pass `serialNumber` of `template` with `data`, or finds it when it was issued before (an order's
    /// passes are issued again after a crash, under the same serial numbers).
    /// - Parameters:
    ///   - template: The pass template's folder name.
    ///   - serialNumber: The pass's serial number.
    ///   - data: The pass data (`serialNumber`, `barcodeMessage`, `fields`).
    /// - Returns: The pass as the order records it.
    /// - Throws: ``OrderPassRefused`` when the pass can never be made so (no such template, data it refuses): the
    ///   order notes it. Anything else (a store or signer failing for a moment) leaves the order owing its passes,
    ///   issued again by recovery.
    func issueOrderPass(template: String, serialNumber: String, data: [String: JSONValue]) async throws -> IssuedOrderPass

    /// The passes as one `.pkpasses` archive, in the order given.
    /// - Parameters:
    ///   - passes: The passes, by type identifier and serial number.
    ///   - logger: Where problems are logged.
    /// - Returns: The archive.
    /// - Throws: ``OrderPassesBundleError``.
    func orderPassesBundle(_ passes: [IssuedOrderPass], logger: Logger) async throws -> Data
}

/// A pass an order's item was issued.
public struct IssuedOrderPass: Sendable, Equatable {
    /// Its pass type identifier.
    public var passTypeIdentifier: String
    /// Its serial number.
    public var serialNumber: String
    /// The holder's download link.
    public var downloadURL: String

    /// Creates a pass description.
    /// - Parameters:
    ///   - passTypeIdentifier: The type identifier.
    ///   - serialNumber: The serial number.
    ///   - downloadURL: The download link.
    public init(passTypeIdentifier: String, serialNumber: String, downloadURL: String) {
        self.passTypeIdentifier = passTypeIdentifier
        self.serialNumber = serialNumber
        self.downloadURL = downloadURL
    }
}

/// Why an order's passes could not be bundled.
public enum OrderPassesBundleError: Error, Sendable {
    /// Past Apple's limits (more than 10 passes, or 150 MB): the buyer adds each pass from its own link.
    case limit(String)
    /// A pass of the order is not in the pass store.
    case missingPass(serialNumber: String)
    /// Anything else, such as a pass that could not be signed.
    case failed(String)
}

/// A pass the issuer refuses for good (no such template, data the template refuses): issuing it again would be
/// refused again, so the order notes it instead of waiting for it.
public struct OrderPassRefused: Error, CustomStringConvertible, Sendable {
    /// Why.
    public var reason: String

    /// Creates a refusal.
    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
