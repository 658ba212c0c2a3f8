import Foundation
import PassModel
import Validation

/// The state of one mapping: the pass, what it has used, and problems found on the way.
struct MappingContext {
    let pass: Pass
    let template: PassTemplate
    let overrides: GoogleOverrides
    let issuerId: String
    let imageURL: @Sendable (String, Data) -> String?
    let localizer: GoogleLocalizer
    /// Field keys shown by a dedicated Google member, kept out of the text modules.
    var consumedFields: Set<String> = []
    var problems: [ValidationIssue] = []

    init(pass: Pass, template: PassTemplate, overrides: GoogleOverrides, issuerId: String,
         imageURL: @escaping @Sendable (String, Data) -> String?) {
        self.pass = pass
        self.template = template
        self.overrides = overrides
        self.issuerId = issuerId
        self.imageURL = imageURL
        localizer = GoogleLocalizer(files: template.files)
    }

    var fields: PassFields? { pass.eventTicket ?? pass.boardingPass ?? pass.storeCard ?? pass.coupon ?? pass.generic }
    var semantics: JSONValue { pass.semantics ?? .object([:]) }

    /// Members every kind shares: ids, issuer, review status, colour, logo and hero images, barcode, state,
    /// locations and validity.
    mutating func common(state: GoogleObjectState) -> (class: [String: JSONValue], object: [String: JSONValue]) {
        var classMembers: [String: JSONValue] = [
            "id": .string(classId()),
            "issuerName": .string(localizer.text(pass.organizationName ?? template.name)),
            "reviewStatus": .string(overrides.reviewStatus ?? "UNDER_REVIEW"),
        ]
        if let name = pass.organizationName, localizer.isTranslated(name) {
            classMembers["localizedIssuerName"] = localizer.localized(name)
        }
        var object: [String: JSONValue] = [
            "id": .string(objectId()),
            "classId": classMembers["id"] ?? .null,
            "state": .string(state.rawValue),
        ]
        if let colour = pass.backgroundColor.flatMap(Self.hexColour) { object["hexBackgroundColor"] = .string(colour) }
        if let hero = image(named: "strip") ?? image(named: "artwork") ?? image(named: "background") {
            object["heroImage"] = hero
        }
        if let barcode = (pass.barcodes?.first ?? pass.barcode) {
            object["barcode"] = self.barcode(barcode, at: "barcodes[0]")
        }
        if let locations = pass.locations, !locations.isEmpty {
            object["locations"] = .array(locations.prefix(GoogleLimits.maximumLocations).map {
                .object(["latitude": .number($0.latitude ?? 0), "longitude": .number($0.longitude ?? 0)])
            })
        }
        if let expiry = pass.expirationDate.flatMap(GoogleLocalizer.isoDateTime) {
            object["validTimeInterval"] = .object(["end": .object(["date": .string(expiry)])])
        }
        return (classMembers, object)
    }

    /// `<issuer>.<google.json classId, as written>`, or `<issuer>.<the template's name>` with characters Google does
    /// not take written as `-XX`.
    func classId(suffix: String? = nil) -> String {
        if let given = overrides.classId {
            return given.hasPrefix(issuerId + ".") ? given : "\(issuerId).\(given)"
        }
        let base = Self.identifier(template.name)
        return "\(issuerId).\(base)\(suffix.map { "_" + Self.identifier($0) } ?? "")"
    }

    /// `<issuer>.<pass type>.<serial>`, characters Google does not take written as `-XX` (hex), so two passes
    /// never share an id.
    func objectId() -> String {
        "\(issuerId).\(Self.identifier(pass.passTypeIdentifier ?? "pass", keepDots: true)).\(Self.identifier(pass.serialNumber ?? ""))"
    }

    static func identifier(_ text: String, keepDots: Bool = false) -> String {
        var result = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) || scalar == "_" || (keepDots && scalar == ".") {
                result.unicodeScalars.append(scalar)
            } else {
                result += String(format: "-%02X", byte)
            }
        }
        return result
    }

    /// `rgb(44, 18, 82)` → `#2c1252`.
    static func hexColour(_ text: String) -> String? {
        // `#rrggbb`, which Wallet takes with a warning, is already Google's form.
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("#"), trimmed.count == 7, trimmed.dropFirst().allSatisfy(\.isHexDigit) {
            return trimmed.lowercased()
        }
        let digits = text.split { !$0.isNumber }.compactMap { Int($0) }
        guard text.hasPrefix("rgb"), digits.count == 3, digits.allSatisfy({ (0...255).contains($0) }) else { return nil }
        return "#" + digits.map { String(format: "%02x", $0) }.joined()
    }

    /// The template's largest unlocalised version of an image, as Google's `Image` at a public address.
    func image(named name: String, description: String? = nil) -> JSONValue? {
        for file in ["\(name)@3x.png", "\(name)@2x.png", "\(name).png"] {
            guard let data = template.files[file] else { continue }
            guard let uri = imageURL(file, data) else { return nil }
            var members: [String: JSONValue] = ["sourceUri": .object(["uri": .string(uri)])]
            if let description { members["contentDescription"] = localizer.localized(description) }
            return .object(members)
        }
        return nil
    }

    /// Apple's barcode as Google's; a format Google lacks is a problem naming it.
    mutating func barcode(_ barcode: PassBarcode, at path: String) -> JSONValue? {
        let formats = [
            "PKBarcodeFormatQR": "QR_CODE", "PKBarcodeFormatPDF417": "PDF_417", "PKBarcodeFormatAztec": "AZTEC",
            "PKBarcodeFormatCode128": "CODE_128", "PKBarcodeFormatCode39": "CODE_39", "PKBarcodeFormatCodabar": "CODABAR",
            "PKBarcodeFormatEAN13": "EAN_13",
        ]
        let format = barcode.format?.rawValue ?? ""
        guard let type = formats[format] else {
            problems.append(.init(severity: .error, path: "\(path).format",
                                  message: "\(format) has no Google Wallet barcode type (Google has \(Set(formats.values).sorted().joined(separator: ", "))); set \"barcode\" in google.json's \"object\""))
            return nil
        }
        var members: [String: JSONValue] = ["type": .string(type), "value": .string(barcode.message ?? "")]
        if let alt = barcode.altText, !alt.isEmpty { members["alternateText"] = .string(localizer.text(alt)) }
        return .object(members)
    }

    /// A text module per field not shown otherwise (front fields first, then the back), and card rows for the
    /// secondary and auxiliary fields.
    mutating func addTextModules(to object: inout [String: JSONValue], cardRows classMembers: inout [String: JSONValue]) {
        guard let fields else { return }
        var modules: [JSONValue] = []
        var shown: Set<String> = []
        let groups = [fields.headerFields, fields.primaryFields, fields.secondaryFields, fields.auxiliaryFields,
                      fields.backFields, fields.additionalInfoFields, fields.footerFields]
        for field in groups.compactMap({ $0 }).joined() {
            guard let key = field.key, !consumedFields.contains(key), !overrides.omitFields.contains(key),
                  field.value != nil else { continue }
            var module: [String: JSONValue] = ["id": .string(Self.identifier(key)), "body": .string(localizer.display(field))]
            if let label = field.label { module["header"] = .string(localizer.text(label)) }
            if let label = field.label, localizer.isTranslated(label) { module["localizedHeader"] = localizer.localized(label) }
            if case .string(let raw)? = field.value?.json, field.dateStyle == nil, field.timeStyle == nil,
               localizer.isTranslated(raw) {
                module["localizedBody"] = localizer.localized(raw)
            }
            modules.append(.object(module))
            shown.insert(key)
        }
        if !modules.isEmpty { object["textModulesData"] = .array(modules) }
        if modules.count > GoogleLimits.maximumTextModules {
            problems.append(.init(severity: .error, path: "google.json",
                                  message: "the pass has \(modules.count) fields for Google's text modules, which take \(GoogleLimits.maximumTextModules): list the others in google.json's \"omitFields\""))
        }
        let rows = [fields.secondaryFields, fields.auxiliaryFields].compactMap { group -> [String]? in
            let keys = (group ?? []).compactMap(\.key).filter(shown.contains)
            return keys.isEmpty ? nil : Array(keys.prefix(3))
        }
        guard !rows.isEmpty else { return }
        let infos: [JSONValue] = rows.prefix(3).map { keys in
            let items = keys.map { key -> JSONValue in
                .object(["firstValue": .object(["fields": .array([.object(["fieldPath": .string("object.textModulesData['\(Self.identifier(key))']")])])])])
            }
            switch items.count {
            case 1: return .object(["oneItem": .object(["item": items[0]])])
            case 2: return .object(["twoItems": .object(["startItem": items[0], "endItem": items[1]])])
            default: return .object(["threeItems": .object(["startItem": items[0], "middleItem": items[1], "endItem": items[2]])])
            }
        }
        classMembers["classTemplateInfo"] = .object(["cardTemplateOverride": .object(["cardRowTemplateInfos": .array(infos)])])
    }

    /// The first field with one of these keys, marked as shown.
    mutating func take(_ keys: String...) -> PassField? {
        for key in keys {
            if let field = fields?.allFields.first(where: { $0.key == key }), field.value != nil {
                consumedFields.insert(key)
                return field
            }
        }
        return nil
    }
}
