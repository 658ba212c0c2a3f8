package import Foundation

/// Finds keys that appear twice in one JSON object. Foundation's parsers keep one of the values silently, so a
/// `pass.json` with a duplicate key means something other than what its author sees.
package enum JSONDuplicateKeys {
    /// One key written twice in the same object.
    package struct Duplicate: Sendable, Equatable {
        /// The JSON path of the key (`eventTicket.primaryFields[0].label`).
        package var path: String
        /// 1-based line and column of the first occurrence.
        var first: (line: Int, column: Int)
        /// 1-based line and column of the second occurrence.
        var second: (line: Int, column: Int)

        package static func == (lhs: Duplicate, rhs: Duplicate) -> Bool {
            lhs.path == rhs.path && lhs.first == rhs.first && lhs.second == rhs.second
        }

        /// "key \"path\" appears twice: line 3, column 5 and line 9, column 5; ...".
        package var message: String {
            "appears twice in one object (line \(first.line), column \(first.column) and line \(second.line), "
                + "column \(second.column)); JSON readers keep only one of the values"
        }
    }

    private enum Container {
        case object(keys: [String: (line: Int, column: Int)], current: String?)
        case array(index: Int)
    }

    /// Scans JSON text. Text that is not valid JSON gives whatever was found before the fault (the parser reports
    /// the fault itself).
    /// - Parameter data: UTF-8 JSON text.
    /// - Returns: Every duplicate, in the order the second occurrences appear.
    package static func find(in data: Data) -> [Duplicate] {
        let bytes = [UInt8](data)
        var duplicates: [Duplicate] = []
        var stack: [Container] = []
        var line = 1
        var lineStart = 0
        var index = 0
        // Whether the next string in the current object is a key (after `{` or `,`).
        var expectingKey = false

        func path(appending key: String) -> String {
            var text = ""
            for container in stack.dropLast() {
                switch container {
                case .object(_, let current?): text += text.isEmpty ? current : ".\(current)"
                case .array(let position): text += "[\(max(position, 0))]"
                default: break
                }
            }
            return text.isEmpty ? key : "\(text).\(key)"
        }

        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                lineStart = index + 1
            case UInt8(ascii: "{"):
                if case .array(let position)? = stack.last { stack[stack.count - 1] = .array(index: position + 1) }
                stack.append(.object(keys: [:], current: nil))
                expectingKey = true
            case UInt8(ascii: "["):
                if case .array(let position)? = stack.last { stack[stack.count - 1] = .array(index: position + 1) }
                stack.append(.array(index: -1))
                expectingKey = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !stack.isEmpty { stack.removeLast() }
                expectingKey = false
            case UInt8(ascii: ","):
                if case .object? = stack.last { expectingKey = true }
            case UInt8(ascii: "\""):
                let start = index
                let column = index - lineStart + 1
                var escaped = false
                index += 1
                while index < bytes.count {
                    if bytes[index] == UInt8(ascii: "\\") {
                        escaped = true
                        index += 2
                        continue
                    }
                    if bytes[index] == UInt8(ascii: "\"") { break }
                    index += 1
                }
                guard index < bytes.count else { return duplicates }
                if expectingKey, case .object(var keys, _)? = stack.last {
                    let raw = Array(bytes[(start + 1)..<index])
                    let key = escaped
                        ? ((try? JSONDecoder().decode(String.self, from: Data(bytes[start...index]))) ?? String(decoding: raw, as: UTF8.self))
                        : String(decoding: raw, as: UTF8.self)
                    let position = (line: line, column: column)
                    if let first = keys[key] {
                        duplicates.append(Duplicate(path: path(appending: key), first: first, second: position))
                    } else {
                        keys[key] = position
                    }
                    stack[stack.count - 1] = .object(keys: keys, current: key)
                    expectingKey = false
                } else if case .array(let position)? = stack.last {
                    stack[stack.count - 1] = .array(index: position + 1)
                }
            default:
                if case .array(let position)? = stack.last, byte != UInt8(ascii: " "), byte != UInt8(ascii: "\t"),
                    byte != UInt8(ascii: "\r")
                {
                    // A scalar element: count it once, at its first byte.
                    stack[stack.count - 1] = .array(index: position + 1)
                    index += 1
                    while index < bytes.count, !",]}\n \t\r".utf8.contains(bytes[index]) { index += 1 }
                    continue
                }
            }
            index += 1
        }
        return duplicates
    }
}
