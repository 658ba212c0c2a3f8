public import Foundation

/// Writes an event's data object: its members in key order, without spaces, strings escaped as JSON requires and
/// slashes left as they are. The bytes are those `JSONEncoder` writes with `.sortedKeys` and `.withoutEscapingSlashes`
/// (a test compares the two), without its per-value machinery: every pass change, registration and redemption writes
/// one, inside the store's write transaction, and the device protocol's list of changed items (the request a device
/// makes after every push) is answered with one.
public enum EventJSON {
    /// A JSON object of the members, keys in byte order.
    /// - Parameter members: The members.
    /// - Returns: The JSON text.
    public static func object(_ members: [String: EventValue]) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + members.count * 32)
        bytes.append(UInt8(ascii: "{"))
        for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(member.key, into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            switch member.value {
            case .string(let text): string(text, into: &bytes)
            case .integer(let number): bytes.append(contentsOf: String(number).utf8)
            case .strings(let list):
                bytes.append(UInt8(ascii: "["))
                for (position, text) in list.enumerated() {
                    if position > 0 { bytes.append(UInt8(ascii: ",")) }
                    string(text, into: &bytes)
                }
                bytes.append(UInt8(ascii: "]"))
            }
        }
        bytes.append(UInt8(ascii: "}"))
        return Data(bytes)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    static func string(_ text: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
