public import Foundation
import HTTPTypes
import NIOCore
import NIOPosix
import OrderModel
import PassBundle
import PassCrypto
public import PassModel
public import PassStore
import Validation

extension OrderIssuer {
    /// Keys of `order.json` the server sets on every version (never from a data document).
    static let serverKeys = ["authenticationToken", "webServiceURL", "createdAt", "updatedAt"]

    /// Changes an order as a new signed version: the partial data document is merged into the order as it is
    /// (objects key by key, other values replace, `null` removes), except that `fulfillments` entries merge into the
    /// fulfillment with the same `fulfillmentIdentifier` (one with a new identifier is added). So
    /// `{"fulfillments": [{"fulfillmentIdentifier": "F1", "status": "shipped", "trackingNumber": "1Z999"}]}` marks
    /// one shipment shipped with its tracking number, and `{"status": "completed"}` completes the order.
    ///
    /// `updatedAt` becomes the new version's `Last-Modified` (always later than the previous one's); statuses only
    /// move forward; one push per registered device is queued.
    /// - Parameters:
    ///   - orderTypeIdentifier: The order type.
    ///   - orderIdentifier: The order's identifier.
    ///   - patch: The partial data document.
    /// - Returns: The new version and the validator's warnings, or `nil` when there is no such order.
    /// - Throws: ``IssuerError`` 422 naming the field (`data.status`, `data.fulfillments[0].status`, ...).
    public func changeOrder(orderTypeIdentifier: String, orderIdentifier: String, data patch: [String: JSONValue])
        async throws -> (update: PassUpdate, warnings: [String])?
    {
        try PassIssuer.checkData(patch, path: "data")
        for key in ["orderIdentifier", "orderTypeIdentifier"] + Self.serverKeys where patch[key] != nil {
            throw IssuerError.invalidData("data.\(key): cannot be changed (set when the order was created, or by the server)")
        }
        // The patch is merged into the version read and written only if that is still the current one; when another
        // change came first, it is merged again into that one (and its status transition checked from there), so two
        // changes at once both land and neither moves a status backwards.
        while true {
            guard let current = try await order(orderTypeIdentifier: orderTypeIdentifier, orderIdentifier: orderIdentifier)
            else { return nil }
            let builder = try await templateBuilder(for: current)
            if let refusal = refusal(builder) { throw refusal }
            let time = now()
            var next = current
            let currentJSON = try orderJSON(current, builder: builder)
            let places: [Int: Int]
            (next.data, places) = try Self.merged(patch, into: try Self.object(currentJSON), template: builder.template)
            do {
                if let update = try await commit(next, current: current, currentJSON: currentJSON, builder: builder, time: time) {
                    return update
                }
            } catch let error as IssuerError {
                throw Self.naming(places, in: error)
            }
        }
    }

    /// The checks, the build and the write of a changed order (`currentJSON`: the current version's `order.json`);
    /// `nil` when another change came first.
    private func commit(
        _ next: PassRecord, current: PassRecord, currentJSON: Data, builder: OrderBuilder, time: Date
    ) async throws -> (update: PassUpdate, warnings: [String])? {
        var next = next
        // A change that changes nothing is no new version (no push, no order.updated event). The times differ
        // between the two only once lastModified moves, below.
        let nextJSON = try orderJSON(next, builder: builder)
        if nextJSON == currentJSON {
            return (PassUpdate(pass: current, pushesQueued: 0), [])
        }
        next.lastModified = max(time.wholeSeconds, current.lastModified.addingTimeInterval(1))
        let transition = OrderValidator().validateTransition(
            from: try Self.order(currentJSON), to: try Self.order(try orderJSON(next, builder: builder)))
        if !transition.isValid {
            throw IssuerError.invalidData(
                transition.errors.map { "data.\($0.path): \($0.message)" }.joined(separator: "; "))
        }
        let built = try await build(next, builder: builder)
        guard let update = try await store.updatePass(
            passTypeIdentifier: current.passTypeIdentifier, serialNumber: current.serialNumber,
            change: PassChange(data: next.data, onlyIfUpdateTag: current.updateTag), now: time)
        else { return nil }
        if update.pass.lastModified == next.lastModified { remember(ByteBuffer(bytes: built.bundle), for: update.pass) }
        if update.pushesQueued > 0 { onPushesQueued() }
        return (update, built.warnings)
    }

    /// `error` with each `data.fulfillments[i]` of the merged order named by the change's own index (`places`: merged
    /// index to the change's), as the caller sent it: a new fulfillment is appended after the existing ones.
    private static func naming(_ places: [Int: Int], in error: IssuerError) -> IssuerError {
        guard !places.isEmpty, error.description.contains("data.fulfillments[") else { return error }
        func renamed(_ text: String) -> String {
            text.replacing(/data\.fulfillments\[(\d+)\]/) { match in
                Int(match.output.1).flatMap { places[$0] }.map { "data.fulfillments[\($0)]" } ?? String(match.output.0)
            }
        }
        return IssuerError(error.code, status: error.status, description: renamed(error.description),
                           field: error.field.map(renamed))
    }

    /// Builds and signs an order's current version with its template.
    public func signedBundle(for order: PassRecord) async throws -> Data {
        try await build(order, builder: try await templateBuilder(for: order)).bundle
    }

    /// The `order.json` of a version: the template with the stored data and the server's keys merged in (the
    /// identifiers, `webServiceURL`, `authenticationToken`, and `createdAt`/`updatedAt` from the record's times).
    private func orderJSON(_ order: PassRecord, builder: OrderBuilder) throws -> Data {
        try builder.template.orderJSON(applying: try serverDocument(order), source: "data")
    }

    func serverDocument(_ order: PassRecord) throws -> Data {
        var document = try PassIssuer.document(order.data)
        // The record's identifiers, whatever the stored document says: the Order Type ID is the signing certificate's
        // (a template written for another one works with any certificate, on every version, not only the first).
        document["orderTypeIdentifier"] = .string(order.passTypeIdentifier)
        document["orderIdentifier"] = .string(order.serialNumber)
        document["authenticationToken"] = .string(order.authenticationToken)
        document["webServiceURL"] = .string(webServiceURL)
        document["createdAt"] = .string(Self.timestamp(order.createdAt))
        document["updatedAt"] = .string(Self.timestamp(order.lastModified))
        return try JSONValue.object(document).jsonData(sortedKeys: true, prettyPrinted: false)
    }

    /// Builds and signs one version on NIO's blocking thread pool.
    func build(_ order: PassRecord, builder: OrderBuilder) async throws -> (bundle: Data, warnings: [String]) {
        let document = try serverDocument(order)
        return try await NIOThreadPool.singleton.runIfActive {
            do {
                let built = try builder.build(data: document, source: "data")
                return (built.bundle, built.warnings.map(PassIssuer.warningText))
            } catch let error as PassBundleError where !error.issues.isEmpty {
                throw IssuerError.invalidData(error.issues.filter { $0.severity == .error }
                    .map { "data.\($0.path): \($0.message)" }.joined(separator: "; "))
            } catch let error as PassBundleError {
                throw IssuerError.serverFault(error, items: "orders")
                    ?? IssuerError.invalidData("data.orderTypeIdentifier: \(error.reason)")
            }
        }
    }

    /// `time` in RFC 3339, UTC, to the second.
    static func timestamp(_ time: Date) -> String {
        time.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!))
    }

    private static func object(_ json: Data) throws -> [String: JSONValue] {
        try PassIssuer.document(json)
    }

    private static func order(_ json: Data) throws -> Order {
        do {
            return try JSONDecoder().decode(Order.self, from: json)
        } catch let error as DecodingError {
            // The member at fault, named as create names it (`data.fulfillments[1].fulfillmentType: required key is
            // missing`), not the decoder's own text.
            let failure = JSONDecodingFailure(error)
            let reason = switch failure.kind {
            case .missing: "required key is missing"
            case .wrongType(let expected): "must be \(expected)"
            case .null(let expected): "must be \(expected), found null"
            case .malformed(let detail): detail
            }
            throw IssuerError.invalidData("data.\(failure.jsonPath): \(reason)")
        } catch {
            throw IssuerError.invalidData("data: the order does not decode: \(error)")
        }
    }

    /// The stored data of the next version: `patch` merged into the current `order.json`, without the server's keys;
    /// and where each of the patch's `fulfillments` went (merged index to the patch's).
    private static func merged(_ patch: [String: JSONValue], into current: [String: JSONValue], template: OrderTemplate)
        throws -> (data: Data, places: [Int: Int])
    {
        var document = merge(patch, into: current)
        var places: [Int: Int] = [:]
        if case .array(let changes)? = patch["fulfillments"], case .array(let existing)? = current["fulfillments"] {
            let fulfillments: [JSONValue]
            (fulfillments, places) = mergeFulfillments(changes, into: existing)
            document["fulfillments"] = .array(fulfillments)
        }
        // Every member of the template this version lacks (removed by this change or an earlier one, at any depth)
        // is a null in the stored data: applied over the template it removes the member there too (as on create),
        // where a member merely left out would come back from the template at the next build.
        document = template.dataDocument(keepingRemovalsIn: document)
        for key in serverKeys + ["orderTypeIdentifier"] { document[key] = nil }
        return (try JSONValue.object(document).jsonData(sortedKeys: true, prettyPrinted: false), places)
    }

    private static func merge(_ patch: [String: JSONValue], into base: [String: JSONValue]) -> [String: JSONValue] {
        var result = base
        for (key, value) in patch {
            switch (value, base[key]) {
            case (.null, _): result[key] = nil
            case (.object(let inner), .object(let existing)?): result[key] = .object(merge(inner, into: existing))
            default: result[key] = value
            }
        }
        return result
    }

    /// Each change merges into the fulfillment with its `fulfillmentIdentifier`; others are appended. Also returns
    /// where each change went (merged index to the change's).
    private static func mergeFulfillments(_ changes: [JSONValue], into existing: [JSONValue])
        -> (fulfillments: [JSONValue], places: [Int: Int])
    {
        var result = existing
        var places: [Int: Int] = [:]
        for (position, change) in changes.enumerated() {
            guard case .object(let members) = change, let identifier = members["fulfillmentIdentifier"],
                  let index = result.firstIndex(where: { $0["fulfillmentIdentifier"] == identifier }),
                  case .object(let old) = result[index]
            else {
                places[result.count] = position
                result.append(change)
                continue
            }
            places[index] = position
            result[index] = .object(merge(members, into: old))
        }
        return (result, places)
    }
}

extension OrderIssuer {
    /// The `order.json` of an order's current version, as devices get it signed.
    /// - Parameter order: The stored order.
    /// - Returns: The document.
    /// - Throws: ``IssuerError`` when its template cannot be loaded.
    public func orderDocument(for order: PassRecord) async throws -> JSONValue {
        let builder = try await templateBuilder(for: order)
        let document = try serverDocument(order)
        let orderJSON = try await NIOThreadPool.singleton.runIfActive {
            do {
                return try builder.document(data: document, source: "data").orderJSON
            } catch let error as PassBundleError {
                throw IssuerError.serverFault(error, items: "orders")
                    ?? IssuerError.invalidData("data.orderTypeIdentifier: \(error.reason)")
            }
        }
        return try JSONValue(jsonData: orderJSON)
    }
}

extension OrderIssuer {
    /// The Order Type ID a template's orders are signed with (its identity's certificate's).
    /// - Throws: ``IssuerError`` when there is no such template.
    public func orderTypeIdentifier(ofTemplate name: String) async throws -> String? {
        try await templateBuilder(named: name).signer.identity.orderTypeIdentifier
    }

    /// Why new versions of `builder`'s orders cannot be signed now: its Order Type ID certificate (or the WWDR
    /// intermediate) expired or is not valid yet. Stored versions are still served; `nil` when it can sign.
    func refusal(_ builder: OrderBuilder) -> IssuerError? {
        IssuerError.signingUnavailable(
            builder.signer.identity.orderTypeIdentifier ?? "the order identity", items: "orders",
            credentials: builder.signer.credentials, at: now())
    }
}
