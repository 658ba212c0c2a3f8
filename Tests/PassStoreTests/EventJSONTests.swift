import Foundation
@testable import PassStore
import Testing

@Suite("An event's data is written as JSONEncoder would write it (sorted keys, slashes unescaped)")
struct EventJSONTests {
    static func encoderBytes(_ members: [String: EventValue]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(members)
    }

    static var everyASCIICharacter: String {
        var text = ""
        for value in 0..<0x80 { text.unicodeScalars.append(Unicode.Scalar(UInt8(value))) }
        return text
    }

    static let cases: [[String: EventValue]] = [
        [:],
        ["updateTag": .integer(42), "template": .string("event-ticket"), "changed": .strings(["data", "voided"]),
         "passTypeIdentifier": .string("pass.dev.tessera.demo"), "serialNumber": .string("B0000001"),
         "campaign": .string("0b7c2f0e-2a51-4c1e-9d57-3c1f3b1f0a11")],
        ["text": .string(everyASCIICharacter), "list": .strings([everyASCIICharacter, "", "a/b\\c\"d"])],
        ["unicode": .string("é日本🎟️\u{2028}\u{2029}\u{7F}"), "empty": .strings([])],
        // The device protocol's list of changed passes and orders.
        ["serialNumbers": .strings(["B0000001", "a/b", "q\"uote", "é日本"]), "lastUpdated": .string("9223372036854775807")],
        ["orderIdentifiers": .strings(["order-1"]), "lastModified": .string("-1")],
        ["min": .integer(.min), "max": .integer(.max), "zero": .integer(0), "negative": .integer(-7)],
        // Byte order, as JSONEncoder sorts: upper case first, no numeric or case-insensitive ordering.
        ["pushesQueued": .integer(1), "pushToken": .integer(2), "a10": .integer(3), "a9": .integer(4), "Zeta": .integer(5),
         "alpha": .integer(6), "b_c": .integer(7), "bC": .integer(8), "é": .integer(9), "e": .integer(10)],
    ]

    @Test("Each case gives the same bytes", arguments: cases.indices)
    func sameBytes(index: Int) throws {
        let members = Self.cases[index]
        let written = EventJSON.object(members)
        let expected = try Self.encoderBytes(members)
        #expect(written == expected, "\(String(decoding: written, as: UTF8.self)) != \(String(decoding: expected, as: UTF8.self))")
        #expect(try JSONSerialization.jsonObject(with: written) is [String: Any])
    }
}
