public import Foundation
public import PassModel
import PassBundle
public import PassStore

extension PassIssuer {
    /// A pass's current version as `pass.json` reads (template, data, the holder's details, voided), with its
    /// template: what another wallet shows of it. A campaign's message is not a field here: it is returned apart.
    /// - Parameter record: The pass.
    /// - Returns: The pass, its template, and the message of the campaign that last changed it, if any.
    /// - Throws: ``IssuerError`` when its template is gone or its data no longer applies.
    public func currentPass(of record: PassRecord) async throws -> (pass: Pass, template: PassTemplate, message: String?) {
        let entry = try await templateEntry(for: record)
        let (builder, data) = try prepare(record, entry: entry, keepingMessage: false)
        var pass: Pass
        do {
            pass = try builder.template.pass(applying: data)
        } catch let error as PassModelError {
            throw IssuerError.invalidData("data: \(error.description)")
        }
        // The identifiers as the store knows them, which the signing certificate sets in the signed pass.
        pass.passTypeIdentifier = record.passTypeIdentifier
        pass.serialNumber = record.serialNumber
        let message = (try? Self.document(record.data))?[Self.messageKey]?.stringValue
        return (pass, builder.template, message)
    }
}

extension PassIssuer {
    /// Every PNG image of every template that loads (their current versions), for other wallets to fetch.
    /// - Returns: The images' bytes.
    public func templateImages() async -> [Data] {
        var images: [Data] = []
        for summary in (try? await templateSummaries()) ?? [] where summary.error == nil {
            guard let entry = try? await templateEntry(named: summary.name) else { continue }
            images += entry.builder.template.files.filter { $0.key.hasSuffix(".png") }.map(\.value)
        }
        return images
    }
}
