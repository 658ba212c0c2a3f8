public import Foundation
public import PassModel
public import Validation

/// A pass's Google Wallet class and object, ready to insert or to put in a save link.
public struct GoogleWalletPass: Sendable, Equatable {
    /// The kind of Google pass.
    public var vertical: GoogleVertical
    /// The class (`EventTicketClass`, ...), an object with an `id`.
    public var classJSON: JSONValue
    /// The object (`EventTicketObject`, ...), an object with an `id` and `classId`.
    public var objectJSON: JSONValue
    /// Problems that do not stop Google from taking the pass (text cut on small screens).
    public var warnings: [ValidationIssue]

    /// The class's id.
    public var classId: String { classJSON["id"]?.stringValue ?? "" }
    /// The object's id.
    public var objectId: String { objectJSON["id"]?.stringValue ?? "" }
}

/// The state of a Google object: how Wallet shows it.
public enum GoogleObjectState: String, Sendable, Codable {
    /// Usable.
    case active = "ACTIVE"
    /// Voided: shown under expired passes.
    case inactive = "INACTIVE"
    /// Used: a redeemed pass.
    case completed = "COMPLETED"
}

/// Makes a pass's Google Wallet class and object from its template and its own `pass.json`: the style picks the
/// kind (event ticket, flight, transit, loyalty, offer, generic), semantics and fields fill it, `.lproj` strings
/// become translations, and the template's `google.json` adds or replaces what it wants.
public struct GooglePassMapper: Sendable {
    /// The Google Wallet issuer id (digits).
    public var issuerId: String
    /// The https address of one of the template's images (file name, bytes), or `nil` when no public address is
    /// known (then the image is left out, and a class that needs one says so).
    public var imageURL: @Sendable (_ fileName: String, _ data: Data) -> String?

    /// Creates a mapper.
    /// - Parameters:
    ///   - issuerId: The issuer id.
    ///   - imageURL: Where the server serves a template image.
    public init(issuerId: String, imageURL: @escaping @Sendable (_ fileName: String, _ data: Data) -> String? = { _, _ in nil }) {
        self.issuerId = issuerId
        self.imageURL = imageURL
    }

    /// The vertical a pass maps to: its template's `google.json` `vertical`, else the one its style suggests.
    /// - Parameters:
    ///   - pass: The pass.
    ///   - template: Its template.
    /// - Returns: The vertical.
    /// - Throws: ``GoogleWalletError`` `invalidOverrides` for a bad `google.json`.
    public static func vertical(of pass: Pass, template: PassTemplate) throws(GoogleWalletError) -> GoogleVertical {
        try GoogleOverrides.of(template).vertical ?? vertical(of: pass)
    }

    /// Maps one pass and checks the result against Google's schema.
    /// - Parameters:
    ///   - pass: The pass (the template with its data applied).
    ///   - template: Its template (images, strings, `google.json`).
    ///   - state: The object's state; voided passes are ``GoogleObjectState/inactive`` whatever this says.
    /// - Returns: The class and object.
    /// - Throws: ``GoogleWalletError`` `invalidOverrides` for a bad `google.json`; `invalidMapping` with every
    ///   problem and its path, saying what to add to `google.json`.
    public func map(_ pass: Pass, template: PassTemplate, state: GoogleObjectState = .active) throws(GoogleWalletError) -> GoogleWalletPass {
        let overrides = try GoogleOverrides.of(template)
        var context = MappingContext(pass: pass, template: template, overrides: overrides, issuerId: issuerId, imageURL: imageURL)
        let vertical = overrides.vertical ?? Self.vertical(of: pass)
        var (classMembers, objectMembers) = context.common(state: pass.voided == true ? .inactive : state)
        context.fill(vertical, class: &classMembers, object: &objectMembers)
        context.addTextModules(to: &objectMembers, cardRows: &classMembers)
        var classJSON = JSONValue.object(classMembers).merging(overrides.classMembers)
        let objectJSON = JSONValue.object(objectMembers).merging(overrides.objectMembers)
        var issues = context.problems
        // The class is every holder's (one per template, or per google.json classId): it is made from the template's
        // own content, so that one pass's data (an offer's title, an organization name, a date) never changes what
        // the other holders see, and the class does not flip with each pass that changes. A class named after the
        // pass's own data (a flight's, per flight and date) is the class of the passes sharing that data, and a
        // template whose class needs a pass's data to be complete keeps the class made from the pass.
        var shared = template.pass
        shared.passTypeIdentifier = pass.passTypeIdentifier
        shared.serialNumber = pass.serialNumber
        shared.teamIdentifier = pass.teamIdentifier
        shared.organizationName = template.pass.organizationName ?? pass.organizationName
        var sharedContext = MappingContext(pass: shared, template: template, overrides: overrides, issuerId: issuerId,
                                           imageURL: imageURL)
        var (sharedClass, sharedObject) = sharedContext.common(state: state)
        sharedContext.fill(vertical, class: &sharedClass, object: &sharedObject)
        sharedContext.addTextModules(to: &sharedObject, cardRows: &sharedClass)
        let templateClass = JSONValue.object(sharedClass).merging(overrides.classMembers)
        let templateIssues = WalletObjectsSchema.validate(templateClass, as: vertical.classSchema, at: "\(vertical.classesMember)[0]")
        if templateClass["id"] == classJSON["id"], !templateIssues.contains(where: { $0.severity == .error }),
           !sharedContext.problems.contains(where: { $0.severity == .error && $0.path.hasPrefix(vertical.classesMember) }) {
            classJSON = templateClass
        }
        issues += WalletObjectsSchema.validate(classJSON, as: vertical.classSchema, at: "\(vertical.classesMember)[0]")
        issues += WalletObjectsSchema.validate(objectJSON, as: vertical.objectSchema, at: "\(vertical.objectsMember)[0]")
        // The template's logo becomes the class's logo only when Google can fetch it by address.
        let unservedLogo = ["logo@3x.png", "logo@2x.png", "logo.png"].first { name in
            template.files[name].map { imageURL(name, $0) == nil } ?? false
        }
        let errors = issues.filter { $0.severity == .error }.map {
            Self.withHint($0, vertical: vertical, unservedLogo: unservedLogo)
        }
        guard errors.isEmpty else {
            let list = errors.map(\.description).joined(separator: "\n  ")
            throw GoogleWalletError(.invalidMapping,
                                    "template \(template.name): the Google Wallet \(vertical.rawValue) pass has \(errors.count) problem(s):\n  \(list)",
                                    issues: errors)
        }
        return GoogleWalletPass(vertical: vertical, classJSON: classJSON, objectJSON: objectJSON,
                                warnings: issues.filter { $0.severity == .warning })
    }

    /// The kind of Google pass a pass style maps to.
    /// - Parameter pass: The pass.
    /// - Returns: Event ticket, flight (air boarding passes), transit (other boarding passes), loyalty (store cards),
    ///   offer (coupons) or generic.
    public static func vertical(of pass: Pass) -> GoogleVertical {
        if pass.eventTicket != nil { return .eventTicket }
        if let boarding = pass.boardingPass {
            return boarding.transitType?.rawValue == "PKTransitTypeAir" ? .flight : .transit
        }
        if pass.storeCard != nil { return .loyalty }
        if pass.coupon != nil { return .offer }
        return .generic
    }

    /// The pass an object id names: `<issuer>.<pass type>.<serial>` with Google's forbidden characters as `-XX`.
    /// - Parameter objectId: The object id.
    /// - Returns: The pass type and serial number, or `nil` for an id of another issuer or another shape.
    public func pass(ofObjectId objectId: String) -> (passTypeIdentifier: String, serialNumber: String)? {
        guard objectId.hasPrefix(issuerId + "."), let dot = objectId.lastIndex(of: ".") else { return nil }
        let type = objectId[objectId.index(objectId.startIndex, offsetBy: issuerId.count + 1)..<dot]
        let serial = objectId[objectId.index(after: dot)...]
        guard !type.isEmpty, let decodedType = Self.decode(type), let decodedSerial = Self.decode(serial) else { return nil }
        return (decodedType, decodedSerial)
    }

    private static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == "-" {
                guard let end = text.index(index, offsetBy: 3, limitedBy: text.endIndex),
                      let byte = UInt8(text[text.index(after: index)..<end], radix: 16) else { return nil }
                bytes.append(byte)
                index = end
            } else {
                bytes.append(contentsOf: Array(String(text[index]).utf8))
                index = text.index(after: index)
            }
        }
        return String(bytes: bytes, encoding: .utf8)
    }

    /// A missing member says where `google.json` can give it; a missing logo the template has says that Google
    /// needs its address.
    private static func withHint(_ issue: ValidationIssue, vertical: GoogleVertical, unservedLogo: String?) -> ValidationIssue {
        guard issue.message.hasPrefix("is required") else { return issue }
        let isClass = issue.path.hasPrefix(vertical.classesMember)
        let prefix = isClass ? "\(vertical.classesMember)[0]." : "\(vertical.objectsMember)[0]."
        let member = issue.path.hasPrefix(prefix) ? String(issue.path.dropFirst(prefix.count)) : issue.path
        var hinted = issue
        if let unservedLogo, ["programLogo", "logo", "titleImage"].contains(member) {
            hinted.message += "; the template's \(unservedLogo) becomes it once Google can fetch images by address "
                + "(pass google --public-url; the server gives its own), or add \"\(member)\" to google.json's \"\(isClass ? "class" : "object")\""
            return hinted
        }
        hinted.message += "; the template does not say it: add \"\(member)\" to google.json's \"\(isClass ? "class" : "object")\""
        return hinted
    }
}
