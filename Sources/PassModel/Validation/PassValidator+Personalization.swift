import Foundation

extension PassValidator {
    /// The details Wallet can ask a holder for when a pass offers sign-up (Apple's `PKPassPersonalizationField…`).
    static let personalizationFields: Set<String> = [
        "PKPassPersonalizationFieldName", "PKPassPersonalizationFieldPostalCode", "PKPassPersonalizationFieldEmailAddress",
        "PKPassPersonalizationFieldPhoneNumber",
    ]

    /// Checks `personalization.json` as Apple's Personalize object: `requiredPersonalizationFields` (the details asked
    /// for, at least one, each a known field) and `description` (what the holder is signing up for) are required,
    /// `termsAndConditions` is optional text; without the required ones Wallet cannot offer the sign-up.
    static func checkPersonalization(_ document: JSONValue, path: String, context: inout ValidationContext) {
        guard case .object(let members) = document else {
            context.error(path, "must be a JSON object (requiredPersonalizationFields, description, termsAndConditions)")
            return
        }
        switch members["requiredPersonalizationFields"] {
        case nil:
            context.error(path, "requiredPersonalizationFields: required (the details Wallet asks the holder for)")
        case .array(let fields)?:
            if fields.isEmpty {
                context.error(path, "requiredPersonalizationFields: must name at least one field")
            }
            var seen: Set<String> = []
            for (index, field) in fields.enumerated() {
                guard case .string(let name) = field else {
                    context.error(path, "requiredPersonalizationFields[\(index)]: expected a string, found \(field.kindName)")
                    continue
                }
                if !personalizationFields.contains(name) {
                    context.error(path, "requiredPersonalizationFields[\(index)]: \"\(name)\" is not a field Wallet asks for (one of "
                        + personalizationFields.sorted().joined(separator: ", ") + ")")
                } else if !seen.insert(name).inserted {
                    context.warning(path, "requiredPersonalizationFields[\(index)]: \(name) is listed twice")
                }
            }
        case let other?:
            context.error(path, "requiredPersonalizationFields: expected an array of field names, found \(other.kindName)")
        }
        switch members["description"] {
        case nil:
            context.error(path, "description: required (what the holder signs up for, shown by Wallet)")
        case .string(let text)?:
            if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                context.error(path, "description: is empty")
            }
        case let other?:
            context.error(path, "description: expected a string, found \(other.kindName)")
        }
        if let terms = members["termsAndConditions"], terms.stringValue == nil {
            context.error(path, "termsAndConditions: expected a string, found \(terms.kindName)")
        }
        for key in members.keys.sorted() where !["requiredPersonalizationFields", "description", "termsAndConditions"].contains(key) {
            context.warning(path, "\(key): not a key of personalization.json; Wallet ignores it")
        }
    }
}
