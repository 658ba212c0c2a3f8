import TesseraHTTP
public import Checkout
public import Foundation
public import Logging
public import PassModel
public import PassWebService
import PassStore

/// Checkout's ``Checkout/OrderPassIssuing`` over the pass web service's ``PassWebService/PassIssuer``: the order's
/// passes go into the same store, under the same templates and signing, as the issuer API's, and the buyer's
/// download links are the holder links the web service serves.
public struct OrderPassIssuer: OrderPassIssuing {
    /// The pass web service's issuer.
    public let issuer: PassIssuer

    /// Creates the adapter.
    /// - Parameter issuer: The pass web service's issuer.
    public init(issuer: PassIssuer) {
        self.issuer = issuer
    }

    public func issueOrderPass(template: String, serialNumber: String, data: [String: JSONValue]) async throws
        -> IssuedOrderPass
    {
        do {
            return try await issue(template: template, serialNumber: serialNumber, data: data)
        } catch let error as IssuerError where error.code != .signingUnavailable && error.code != .internalError {
            // No such template, data it refuses: the same again every time. (A signer out, a template that does not
            // load for now: issued again once it is back.)
            throw OrderPassRefused(reason: error.description)
        }
    }

    private func issue(template: String, serialNumber: String, data: [String: JSONValue]) async throws -> IssuedOrderPass {
        let pass: PassRecord
        let type = try issuer.passTypeIdentifier(ofTemplate: template)
        if let type, let existing = try await issuer.item(typeIdentifier: type, identifier: serialNumber) {
            pass = existing
        } else {
            do {
                pass = try await issuer.createPass(template: template, data: data)
            } catch let error as IssuerError where error.code == .conflict {
                // Another process issued this order's pass meanwhile (two recoveries of one authorization): the
                // serial number comes from the order, so that pass is this one.
                guard let type, let existing = try await issuer.item(typeIdentifier: type, identifier: serialNumber)
                else { throw error }
                pass = existing
            }
        }
        return IssuedOrderPass(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber,
                               downloadURL: issuer.downloadURL(for: pass))
    }

    public func orderPassesBundle(_ passes: [IssuedOrderPass], logger: Logger) async throws -> Data {
        do {
            try issuer.checkPassesBundleCount(passes.count)
            var records: [PassRecord] = []
            for pass in passes {
                guard let record = try await issuer.item(typeIdentifier: pass.passTypeIdentifier, identifier: pass.serialNumber)
                else { throw OrderPassesBundleError.missingPass(serialNumber: pass.serialNumber) }
                records.append(record)
            }
            return try await issuer.passesBundle(for: records, logger: logger)
        } catch let error as IssuerError where error.code == .passesBundleLimit {
            let reason = error.description.hasPrefix("passes: ")
                ? String(error.description.dropFirst("passes: ".count)) : error.description
            throw OrderPassesBundleError.limit(reason)
        } catch let error as IssuerError {
            throw OrderPassesBundleError.failed(error.description)
        }
    }
}
