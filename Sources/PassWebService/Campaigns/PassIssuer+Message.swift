import Foundation
import PassBundle
public import PassModel
import Synchronization

extension PassIssuer {
    /// The data document key whose text Wallet shows on the lock screen when a version changes it: the pass gets a
    /// back field (key `campaignMessage`, no label) holding the text, with the `changeMessage` `%@`, so a device that
    /// updates to a version with another text notifies its holder with the text itself. Campaigns set it from their
    /// `message`; a `PATCH` may set it too. An empty text leaves the field out.
    public static let messageKey = "campaignMessage"

    /// Adds the message back field to the pass's style in `overrides` (the style as the data overrides it, or the
    /// template's), replacing an earlier message field.
    static func applyMessage(_ value: JSONValue, to overrides: inout [String: JSONValue], template pass: Pass) throws {
        guard case .string(let text) = value else {
            throw IssuerError.invalidData("data.\(messageKey): must be text, found \(value.kindName)")
        }
        guard !text.isEmpty, let style = pass.style else { return }
        var fields: [String: JSONValue]
        if case .object(let given)? = overrides[style.rawValue] {
            fields = given
        } else if let templateFields = pass[style: style] {
            fields = try JSONValue(jsonData: JSONEncoder().encode(templateFields)).objectValue ?? [:]
        } else {
            return
        }
        var back = fields["backFields"]?.arrayValue ?? []
        back.removeAll { $0.objectValue?["key"]?.stringValue == messageKey }
        back.append(.object([
            "key": .string(messageKey), "value": .string(text), "changeMessage": .string("%@"),
        ]))
        fields["backFields"] = .array(back)
        overrides[style.rawValue] = .object(fields)
    }

    /// The builder for a pass whose data carries a message and leaves the template's style alone: the template with
    /// the message back field in place, made once per template version, builder and text. A campaign gives one text
    /// to every pass it changes, so each fetch of those passes applies only its own data to the typed template
    /// (rather than overriding the whole style, which merges and decodes the pass's JSON again for every pass).
    func builder(_ base: PassBuilder, version: String, personalized: Bool, message text: String) throws -> PassBuilder {
        let key = [base.template.name, version, personalized ? "p" : "", text].joined(separator: "\u{0}")
        // A builder made with a signer replaced since (a renewed certificate) is made again.
        if let cached = messageBuilders.withLock({ $0[key] }),
           cached.signer.credentials.certificate === base.signer.credentials.certificate
        {
            return cached
        }
        var root: [String: JSONValue] = [:]
        if case .object(let members) = try JSONValue(jsonData: base.template.passJSON) { root = members }
        guard let style = base.template.pass.style else { return base }
        var overrides: [String: JSONValue] = [:]
        overrides[style.rawValue] = root[style.rawValue]
        try Self.applyMessage(.string(text), to: &overrides, template: base.template.pass)
        guard let fields = overrides[style.rawValue] else { return base }
        root[style.rawValue] = fields
        let template = try PassTemplate(
            name: base.template.name, passJSON: try JSONValue.object(root).jsonData(sortedKeys: true, prettyPrinted: true),
            files: base.template.files)
        let made = try PassBuilder(template: template, signer: base.signer)
        messageBuilders.withLock { cache in
            if cache.count >= Self.messageBuilderCapacity { cache.removeAll() }
            cache[key] = made
        }
        return made
    }

    /// How many message builders are kept (each holds its template's files once more).
    static let messageBuilderCapacity = 16
}

/// The message builders of ``PassIssuer/builder(_:version:personalized:message:)``, by version, builder and text.
typealias MessageBuilderCache = Mutex<[String: PassBuilder]>
