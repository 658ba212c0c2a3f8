import Foundation
import PassModel

/// The words Wallet itself writes on the semantic and poster layouts (not the pass's own labels), in English and
/// French; other languages get the English words.
enum WalletLabels {
    private static let french = [
        "Departs": "Départ", "Arrives": "Arrivée", "Gate": "Porte", "Terminal": "Terminal", "Boards": "Embarquement",
        "Group": "Groupe", "Zone": "Zone", "Seat": "Siège", "Passenger": "Passager", "Section": "Section",
        "Row": "Rang", "Flight": "Vol",
    ]

    /// `word` in `language` (`fr`, `fr-CA`, ...), else `word`.
    static func text(_ word: String, language: String?) -> String {
        language?.hasPrefix("fr") == true ? french[word] ?? word : word
    }
}

/// Reads the pass's `semantics` for the layouts drawn from it.
struct SemanticValues {
    let members: [String: JSONValue]

    init(_ semantics: JSONValue?) {
        if case .object(let members)? = semantics { self.members = members } else { members = [:] }
    }

    /// A string tag (numbers are written as they are), or `nil` when absent or empty.
    func string(_ key: String) -> String? {
        switch members[key] {
        case .string(let value)?: return value.trimmingCharacters(in: .whitespaces).isEmpty ? nil : value
        case .integer(let value)?: return String(value)
        case .number(let value)?: return FieldFormatter.plain(value)
        default: return nil
        }
    }

    /// The first entry of `seats` as an object of strings.
    var firstSeat: [String: String] {
        guard case .array(let seats)? = members["seats"], case .object(let seat)? = seats.first else { return [:] }
        return seat.compactMapValues { $0.stringValue }
    }

    /// `passengerName` (person-name components) or a plain string, as "Given Family".
    var passengerName: String? {
        if let name = string("passengerName") { return name }
        guard case .object(let parts)? = members["passengerName"] else { return nil }
        let words = ["namePrefix", "givenName", "middleName", "familyName", "nameSuffix"].compactMap { parts[$0]?.stringValue }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }
}
