import Foundation
import OpenAPIRuntime
import PassCrypto
import PassStore
import PassWebService
import Timestamps

/// The three measured device operations as the generated `APIProtocol`: the same issuer calls
/// (`WalletItemIssuer`), checks and answers as the hand-written routes, with the request parsing and response
/// writing the generator made from openapi.json.
struct DeviceAPIHandlers: APIProtocol {
    let issuer: PassIssuer
    var now: @Sendable () -> Date = Date.init

    /// JSON as the hand-written routes write it: sorted keys, slashes unescaped, not pretty-printed.
    static let configuration = Configuration(jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes])

    /// The error body of a malformed path segment, as the hand-written routes send it.
    private static func malformed(_ name: String) -> Components.Schemas._Error {
        .init(error: .init(code: .invalidRequest, message: "malformed \(name) in the path", field: name))
    }

    /// The pass a request names when its `ApplePass` token matches (the issuer's constant-time check); a missing
    /// pass and a wrong token both give `nil`.
    private func authenticatedPass(passTypeIdentifier: String, serialNumber: String) async throws -> PassRecord? {
        try await issuer.authenticatedItem(
            typeIdentifier: passTypeIdentifier, identifier: serialNumber, token: ApplePassCredential.token)
    }

    func listUpdatedSerialNumbers(_ input: Operations.ListUpdatedSerialNumbers.Input) async throws
        -> Operations.ListUpdatedSerialNumbers.Output
    {
        let device = input.path.deviceLibraryIdentifier
        let passTypeIdentifier = input.path.passTypeIdentifier
        guard PathSegments.isValidDeviceLibraryIdentifier(device) else {
            return .badRequest(.init(body: .json(Self.malformed("deviceLibraryIdentifier"))))
        }
        guard PathSegments.isValidPassTypeIdentifier(passTypeIdentifier) else {
            return .badRequest(.init(body: .json(Self.malformed("passTypeIdentifier"))))
        }
        // An unparseable tag counts as none, as on the hand-written route.
        let since = input.query.passesUpdatedSince.flatMap { Int64($0) }
        guard let list = try await issuer.changedItems(device: device, typeIdentifier: passTypeIdentifier, updatedSince: since)
        else { return .noContent(.init()) }
        return .ok(.init(body: .json(.init(serialNumbers: list.serialNumbers, lastUpdated: String(list.lastUpdated)))))
    }

    func getLatestPass(_ input: Operations.GetLatestPass.Input) async throws -> Operations.GetLatestPass.Output {
        guard PathSegments.isValidPassTypeIdentifier(input.path.passTypeIdentifier) else {
            return .badRequest(.init(body: .json(Self.malformed("passTypeIdentifier"))))
        }
        guard PathSegments.isValidSerialNumber(input.path.serialNumber) else {
            return .badRequest(.init(body: .json(Self.malformed("serialNumber"))))
        }
        guard let pass = try await authenticatedPass(
            passTypeIdentifier: input.path.passTypeIdentifier, serialNumber: input.path.serialNumber)
        else { return .unauthorized(.init()) }
        let lastModified = HTTPDate.format(pass.lastModified)
        if let header = input.headers.ifModifiedSince, let since = HTTPDate.parse(header),
           pass.lastModified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
        {
            return .notModified(.init(headers: .init(lastModified: lastModified)))
        }
        let bundle: Data
        do {
            bundle = try await issuer.bundle(for: pass)
        } catch {
            return .internalServerError(.init(body: .json(.init(error: .init(
                code: .internalError, message: "the pass could not be built")))))
        }
        return .ok(.init(
            headers: .init(lastModified: lastModified, cacheControl: "no-cache"),
            body: .applicationVnd_apple_pkpass(HTTPBody(bundle))))
    }

    func registerDevice(_ input: Operations.RegisterDevice.Input) async throws -> Operations.RegisterDevice.Output {
        let device = input.path.deviceLibraryIdentifier
        guard PathSegments.isValidDeviceLibraryIdentifier(device) else {
            return .badRequest(.init(body: .json(Self.malformed("deviceLibraryIdentifier"))))
        }
        guard PathSegments.isValidPassTypeIdentifier(input.path.passTypeIdentifier) else {
            return .badRequest(.init(body: .json(Self.malformed("passTypeIdentifier"))))
        }
        guard PathSegments.isValidSerialNumber(input.path.serialNumber) else {
            return .badRequest(.init(body: .json(Self.malformed("serialNumber"))))
        }
        guard let pass = try await authenticatedPass(
            passTypeIdentifier: input.path.passTypeIdentifier, serialNumber: input.path.serialNumber)
        else { return .unauthorized(.init()) }
        guard case .json(let body) = input.body, !body.pushToken.isEmpty, body.pushToken.utf8.count <= 4096 else {
            return .badRequest(.init(body: .json(.init(error: .init(
                code: .invalidRequest, message: "pushToken: must be a non-empty string", field: "pushToken")))))
        }
        let outcome = try await issuer.register(device: device, pushToken: body.pushToken, for: pass, now: now())
        return outcome == .created ? .created(.init()) : .ok(.init())
    }
}
